/**
 * `kumo crawl` as a user runs it: the compiled CLI in a child process against the trap server,
 * artifacts written into --out, progress on stderr, usage mistakes answered with exit code 2.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { probeChromium } from '../../src/browser/index.js';
import { loadConfig } from '../../src/config/index.js';
import { readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';
import { MAIN_JS, runCli } from '../support/cli-runner.js';
import { jpegSize } from '../support/jpeg-size.js';
import { type ScriptSite, startScriptSite, TALL_PAGE_HEIGHT } from '../support/script-site.js';
import { startTrapServer, type TrapServer } from '../support/trap-server.js';

let trap: TrapServer;
const tempDirs: string[] = [];

before(async () => {
  trap = await startTrapServer();
});

after(async () => {
  await trap.close();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kumo-cli-'));
  tempDirs.push(dir);
  return dir;
}

describe('kumo crawl', () => {
  test('crawls a site into --out', async () => {
    const out = path.join(await tempDir(), 'out');
    const result = await runCli(['crawl', `${trap.baseUrl}/`, '--depth', '1', '--out', out]);
    assert.equal(result.code, 0, result.stderr);

    // stdout lists the written files with their sizes.
    const urlListFile = path.join(out, 'url_list.csv.gz');
    const bundleFile = path.join(out, 'crawl_objects.tar.gz');
    assert.match(result.stdout, new RegExp(`^${escapeRegExp(urlListFile)}\\t\\d+ bytes$`, 'm'));
    assert.match(result.stdout, new RegExp(`^${escapeRegExp(bundleFile)}\\t\\d+ bytes$`, 'm'));
    assert.deepEqual((await readdir(out)).sort(), ['crawl_objects.tar.gz', 'url_list.csv.gz']);
    assert.equal(existsSync(path.join(out, '.kumo-work')), false, 'the work folder is removed');

    const rows = recordsOf(readCsvGz(urlListFile));
    const paths = rows.map((row) => row.crawl_url!.slice(trap.baseUrl.length));
    assert.deepEqual(paths.sort(), [
      '/',
      '/a.html',
      '/b/',
      '/base/index.html',
      '/depth/1',
      '/eucjp.html',
      '/frag.html',
      '/gzip.html',
      '/nolength.html',
      '/query?b=2&a=1',
      '/redirect/chain/1',
      '/sjis.html',
    ]);
    for (const row of rows) assert.equal(row.is_crawl_ok, 'true', JSON.stringify(row));
    const home = rows.find((row) => row.crawl_url === `${trap.baseUrl}/`);
    assert.equal(home?.http_status, '200');
    assert.match(home?.crawl_datetime ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}[+-]\d{4}$/);

    const entries = await readTarGz(bundleFile);
    assert.ok(entries.has(`http/127.0.0.1:${trap.port}/-/-/source.html`));
    assert.ok(entries.has(`http/127.0.0.1:${trap.port}/-/-/meta.json`));

    // Progress lines on stderr (not a terminal: plain log lines).
    assert.match(result.stderr, /pages \d+ done \/ \d+ queued/);
    assert.match(result.stderr, /[\d.]+ pages\/s/);
    assert.match(result.stderr, /pages 12 done \/ 0 queued/, 'the final line has the stored counts');
  });

  test('--limit stops after that many documents', async () => {
    const out = path.join(await tempDir(), 'out');
    const result = await runCli(['crawl', `${trap.baseUrl}/many/0`, '--limit', '5', '--out', out]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readCsvGz(path.join(out, 'url_list.csv.gz')).rows.length, 5);
  });

  test('SIGINT stops the crawl with exit code 130 and keeps the work folder to resume', async () => {
    const out = path.join(await tempDir(), 'out');
    const running = runCli(['crawl', `${trap.baseUrl}/slow?ms=20000`, '--out', out]);
    await waitFor(() => (trap.hits.get('/slow?ms=20000') ?? 0) > 0, 10_000);
    running.child.kill('SIGINT');
    const result = await running;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /interrupted/);
    assert.equal(existsSync(path.join(out, 'url_list.csv.gz')), false, 'no artifact of a cancelled run');
    assert.equal(existsSync(path.join(out, '.kumo-work')), true, 'the work folder stays for a resume');
  });
});

describe('kumo crawl usage errors', () => {
  const cases: { name: string; args: (out: string) => string[]; message: RegExp }[] = [
    { name: '--depth -1', args: (out) => ['--depth', '-1', '--out', out], message: /--depth/ },
    { name: '--depth=-1', args: (out) => ['--depth=-1', '--out', out], message: /--depth/ },
    { name: '--depth abc', args: (out) => ['--depth', 'abc', '--out', out], message: /--depth/ },
    { name: '--limit 0', args: (out) => ['--limit', '0', '--out', out], message: /--limit/ },
    {
      name: '--concurrency 65',
      args: (out) => ['--concurrency', '65', '--out', out],
      message: /--concurrency/,
    },
    { name: "--allow '('", args: (out) => ['--allow', '(', '--out', out], message: /--allow/ },
    { name: "--deny '['", args: (out) => ['--deny', '[', '--out', out], message: /--deny/ },
    { name: 'missing --out', args: () => [], message: /--out/ },
    {
      name: '--viewport 1366',
      args: (out) => ['--viewport', '1366', '--out', out],
      message: /--viewport: .*WIDTHxHEIGHT/,
    },
    {
      name: '--viewport 100x600',
      args: (out) => ['--viewport', '100x600', '--out', out],
      message: /--viewport \(width\): .*320/,
    },
    { name: 'unknown option', args: (out) => ['--depht', '1', '--out', out], message: /--depht/ },
    {
      name: '--sitemap ftp://files.example/sitemap.xml',
      args: (out) => ['--sitemap', 'ftp://files.example/sitemap.xml', '--out', out],
      message: /--sitemap #1: scheme "ftp:" is not http or https/,
    },
  ];
  for (const { name, args, message } of cases) {
    test(`${name}: exit 2 naming the option`, async () => {
      const out = path.join(await tempDir(), 'out');
      const result = await runCli(['crawl', `${trap.baseUrl}/`, ...args(out)]);
      assert.equal(result.code, 2, `stderr: ${result.stderr}`);
      assert.match(result.stderr, /^kumo: /);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(existsSync(out), false, 'nothing is written');
    });
  }

  test('an out-of-range number: the message says the allowed range', async () => {
    const out = path.join(await tempDir(), 'out');
    const concurrency = await runCli(['crawl', `${trap.baseUrl}/`, '--concurrency', '65', '--out', out]);
    assert.equal(concurrency.code, 2);
    assert.match(concurrency.stderr, /--concurrency: .*64/, 'names the maximum, not "Expected union value"');
    const limit = await runCli(['crawl', `${trap.baseUrl}/`, '--limit', '0', '--out', out]);
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /--limit: .*\b1\b/, 'names the minimum, not "Expected union value"');
  });

  test('a seed that is not a URL: exit 2 naming it', async () => {
    const out = path.join(await tempDir(), 'out');
    const result = await runCli(['crawl', 'not-a-url', '--out', out]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /URL #1/);
  });

  test('no URL: exit 2', async () => {
    const out = path.join(await tempDir(), 'out');
    const result = await runCli(['crawl', '--out', out]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /URL/);
  });
});

const chromium = await probeChromium(loadConfig(process.env).chromiumPath);

describe(
  'kumo crawl with the browser',
  { skip: chromium.available ? false : `no browser here: ${chromium.reason}` },
  () => {
    let site: ScriptSite;
    before(async () => {
      site = await startScriptSite();
    });
    after(async () => {
      await site.close();
    });

    test('--spa --screenshot --viewport --full-page: script links followed, full-height JPEGs', async () => {
      const out = path.join(await tempDir(), 'out');
      const result = await runCli([
        'crawl',
        `${site.baseUrl}/script-links`,
        `${site.baseUrl}/tall`,
        '--spa',
        '--screenshot',
        '--viewport',
        '800x600',
        '--full-page',
        '--out',
        out,
      ]);
      assert.equal(result.code, 0, result.stderr);
      const rows = recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')));
      assert.deepEqual(rows.map((row) => new URL(row.crawl_url!).pathname).sort(), [
        '/plain/one',
        '/plain/two',
        '/script-links',
        '/tall',
      ]);
      const entries = await readTarGz(path.join(out, 'crawl_objects.tar.gz'));
      const shots = [...entries.keys()].filter((name) => name.endsWith('/cap_org.jpg'));
      assert.equal(shots.length, 4);
      for (const name of shots) {
        const size = jpegSize(entries.get(name)!);
        assert.equal(size.width, 800);
        if (name.includes('/tall-/'))
          assert.ok(size.height >= TALL_PAGE_HEIGHT, `full height: ${size.height}`);
        else assert.equal(size.height, 600, `${name}: a short page fills the viewport`);
      }
    });
  },
);

describe('kumo crawl without the browser', () => {
  test('--screenshot fails with exit 1 and says how to install it', async () => {
    const out = path.join(await tempDir(), 'out');
    const child = spawn(
      process.execPath,
      [MAIN_JS, 'crawl', `${trap.baseUrl}/`, '--screenshot', '--out', out],
      {
        env: { ...process.env, KUMO_CHROMIUM_PATH: '/nonexistent/chromium' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /no Chromium executable at \/nonexistent\/chromium.*apt-get install chromium/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
