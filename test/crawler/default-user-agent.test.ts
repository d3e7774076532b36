/**
 * The default User-Agent (docs/operations.md, Settings, KUMO_BOT_INFO_URL): `KumoBot/<version>`,
 * with `(+<KUMO_BOT_INFO_URL>)` only when the operator sets a contact page, and never the service's
 * own address (KUMO_PUBLIC_URL, `http://127.0.0.1:<port>` when unset), on the pages and on
 * robots.txt, for `kumo serve` and for `kumo crawl`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { KUMO_VERSION } from '../../src/util/index.js';
import { runCli } from '../support/cli-runner.js';
import { listenLocally, type LocalServer } from '../support/local-server.js';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface RecordingSite extends LocalServer {
  /** The User-Agent of each request, by path. */
  agents: Map<string, string | undefined>;
}

/** A two-page site with robots.txt that records every User-Agent it is sent. */
async function startRecordingSite(): Promise<RecordingSite> {
  const agents = new Map<string, string | undefined>();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    agents.set(url, req.headers['user-agent']);
    if (url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('');
    if (url === '/') {
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>home</title></head><body><a href="/next">next</a></body></html>');
    }
    if (url === '/next') {
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>next</body></html>');
    }
    res.writeHead(404).end();
  });
  const site = { ...(await listenLocally(server)), agents };
  cleanups.push(() => site.close());
  return site;
}

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('kumo-user-agent-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Crawls `site` through `kumo serve` started with `env`; returns the service's own URL. */
async function crawlThroughServe(site: RecordingSite, env: NodeJS.ProcessEnv): Promise<string> {
  const serve = await startServeProcess({
    dataDir: await tempDir(),
    port: await freePort(),
    env: { KUMO_LOG_LEVEL: 'silent', ...env },
    cleanups,
  });
  const id = await serve.requestCrawl({ seed_urls: [`${site.baseUrl}/`], depth_limit: 1 });
  const history = await serve.waitForFinished(id);
  assert.equal(history.crawl_execution_status_dtype_id, 2030, JSON.stringify(history));
  await serve.stop();
  return serve.url;
}

function assertAgents(site: RecordingSite, expected: string): void {
  assert.deepEqual([...site.agents.keys()].sort(), ['/', '/next', '/robots.txt']);
  for (const [url, agent] of site.agents) assert.equal(agent, expected, `User-Agent of ${url}`);
}

test('kumo serve without KUMO_BOT_INFO_URL sends KumoBot/<version> and not its own address', async () => {
  const site = await startRecordingSite();
  const serviceUrl = await crawlThroughServe(site, {});
  assertAgents(site, `KumoBot/${KUMO_VERSION}`);
  for (const agent of site.agents.values()) assert.ok(!agent?.includes(serviceUrl), agent);
});

test('KUMO_PUBLIC_URL alone stays out of the User-Agent; KUMO_BOT_INFO_URL goes in', async () => {
  const alone = await startRecordingSite();
  await crawlThroughServe(alone, { KUMO_PUBLIC_URL: 'https://kumo.internal.example' });
  assertAgents(alone, `KumoBot/${KUMO_VERSION}`);

  const withInfo = await startRecordingSite();
  await crawlThroughServe(withInfo, {
    KUMO_PUBLIC_URL: 'https://kumo.internal.example',
    KUMO_BOT_INFO_URL: 'https://example.org/about/kumobot',
  });
  assertAgents(withInfo, `KumoBot/${KUMO_VERSION} (+https://example.org/about/kumobot)`);
});

test('kumo crawl uses the same default User-Agent', async () => {
  const site = await startRecordingSite();
  const out = path.join(await tempDir(), 'out');
  const result = await runCli(['crawl', `${site.baseUrl}/`, '--depth', '1', '--out', out], 30_000, {
    KUMO_CONFIG_FILE: undefined,
    KUMO_PUBLIC_URL: 'https://kumo.internal.example',
    KUMO_BOT_INFO_URL: 'https://example.org/about/kumobot',
  });
  assert.equal(result.code, 0, result.stderr);
  assertAgents(site, `KumoBot/${KUMO_VERSION} (+https://example.org/about/kumobot)`);
});

test('KUMO_BOT_INFO_URL must be an http(s) URL without spaces or line breaks', async () => {
  for (const [value, reason] of [
    ['ftp://example.org/bot', 'expected an absolute http(s) URL, got "ftp://example.org/bot"'],
    ['https://example.org/bot\nX-Injected: 1', 'expected a URL without spaces or control characters'],
  ] as const) {
    const result = await runCli(
      ['crawl', 'http://127.0.0.1:9/', '--out', path.join(await tempDir(), 'out')],
      30_000,
      {
        KUMO_CONFIG_FILE: undefined,
        KUMO_BOT_INFO_URL: value,
      },
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`^kumo: KUMO_BOT_INFO_URL: ${reason.replace(/[()+.?]/g, '\\$&')}`),
    );
  }
});
