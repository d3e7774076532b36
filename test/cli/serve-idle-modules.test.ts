/**
 * What an idle `kumo serve` has loaded (docs/operations.md, Memory): started with every role on
 * its data directory and asked nothing, it holds none of the code that only a request, a crawl, a
 * bucket, a database server or another command needs. Each is loaded where it is first used; a
 * static import of one of them brings MB back into every idle process.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Packages an idle service must not have loaded, and what loads each. */
const LATER_PACKAGES: Record<string, string> = {
  '@aws-sdk/client-s3': 'a bucket (KUMO_BLOB_URL)',
  postgres: 'a database server (KUMO_DATABASE_URL)',
  undici: 'a webhook attempt or a crawl',
  'playwright-core': 'a rendered page',
  htmlparser2: 'a run fed to a search service',
  'tar-stream': 'a run fed to a search service',
  luxon: 'a schedule or a search day',
  re2: 'a URL pattern',
  re2js: 'a URL pattern',
  'prom-client': 'the first request or scrape',
  wanakana: 'the first search',
};

/** Modules of the service an idle process must not have loaded. */
const LATER_MODULES = [
  'src/search/search-index.js',
  'src/search/site/site-search.js',
  'src/search/bundle-documents.js',
  'src/crawler/http-fetcher.js',
  'src/cli/crawl-action.js',
  'src/cli/index-action.js',
  'src/cli/search-action.js',
  'src/cli/admin-command.js',
  'src/usecases/search-engine.js',
  'src/search/run-index-update.js',
  'src/webhooks/webhook-client.js',
];

/**
 * Preloaded into the service: records the URL of every ES module resolved (the hooks run in a
 * thread of their own and post them) and every CommonJS request, written out when it exits.
 */
const RECORDER = `
import Module, { register } from 'node:module';
import { writeFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
const hooks = 'export function initialize({ port }) { globalThis.port = port; }' +
  'export async function resolve(specifier, context, next) {' +
  ' const resolved = await next(specifier, context); globalThis.port.postMessage(resolved.url); return resolved; }';
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
const load = Module._load;
Module._load = function (request, ...rest) {
  loaded.add(request);
  return load.call(this, request, ...rest);
};
process.on('exit', () => writeFileSync(process.env.KUMO_TEST_MODULES_FILE, [...loaded].join('\\n')));
`;

test('an idle kumo serve has loaded nothing that only a request, a crawl or another command needs', async () => {
  const folder = await makeTempDir('kumo-idle-modules-');
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const recorder = path.join(folder, 'record-modules.mjs');
  const modulesFile = path.join(folder, 'modules.txt');
  await writeFile(recorder, RECORDER);
  const serve = await startServeProcess({
    dataDir: path.join(folder, 'data'),
    port: await freePort(),
    env: { NODE_OPTIONS: `--import ${pathToFileURL(recorder).href}`, KUMO_TEST_MODULES_FILE: modulesFile },
    cleanups,
  });
  // Whatever the start does after listening (the worker pool, the scheduler's first look) is done.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.deepEqual(await serve.stop(), { code: 0, signal: null }, serve.output());
  const loaded = (await readFile(modulesFile, 'utf8')).split('\n');
  assert.ok(
    loaded.some((entry) => entry.endsWith('/src/startup/start-kumo.js')),
    'the recorder saw the service start',
  );
  for (const [name, loadedBy] of Object.entries(LATER_PACKAGES)) {
    const found = loaded.filter((entry) => entry === name || entry.includes(`/node_modules/${name}/`));
    assert.deepEqual(found, [], `${name} is loaded by ${loadedBy}, not at start`);
  }
  for (const module of LATER_MODULES) {
    const found = loaded.filter((entry) => entry.endsWith(`/dist/${module}`));
    assert.deepEqual(found, [], `${module} is loaded when first used, not at start`);
  }
});
