/**
 * The per-host pace lives in a thread of its own (docs/design/crawl.md, Crawl threads): a crawl
 * keeps starting requests while the thread answering the API is busy, as it is when searches keep
 * it saturated. The site runs in a child process, since this test blocks its own thread.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { pollUntil, startTestService, type TestService } from '../support/service-harness.js';

/** A site of 5,000 pages, each linking to the next ten, answered after 10 ms; each request's arrival printed. */
const SITE_SCRIPT = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  process.stdout.write('hit ' + Date.now() + '\\n');
  const n = Number((req.url || '/').slice(1)) || 0;
  const links = Array.from({ length: 10 }, (_, i) => '<a href="/' + (n * 10 + i + 1) + '">p</a>').join('');
  setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>' + links + '</body></html>'), 10);
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
`;

let kumo: TestService;
let site: ChildProcess;
let siteOutput = '';

before(async () => {
  site = spawn(process.execPath, ['-e', SITE_SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  site.stdout!.on('data', (chunk: Buffer) => (siteOutput += chunk.toString()));
  kumo = await startTestService();
});

after(async () => {
  await kumo?.close();
  site?.kill('SIGKILL');
});

function hitTimes(): number[] {
  return [...siteOutput.matchAll(/^hit (\d+)$/gm)].map((match) => Number(match[1]));
}

test('a crawl keeps starting requests while the API thread is blocked', async () => {
  const port = await pollUntil('the site to listen', () => /^port (\d+)$/m.exec(siteOutput)?.[1]);
  await kumo.requestCrawl({
    seed_urls: [`http://127.0.0.1:${port}/0`],
    robots_txt: false,
    documents_limit: 5000,
  });
  await pollUntil('the crawl to be under way', () => (hitTimes().length >= 20 ? true : undefined), 30_000);

  // This thread is the service's API thread: nothing here runs until the loop ends.
  const blockedFromMs = Date.now();
  while (Date.now() - blockedFromMs < 1500);
  const blockedUntilMs = Date.now();

  // The requests the site saw while the thread was blocked, past the first moments (the run
  // thread may have held permits granted just before).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const during = hitTimes().filter((at) => at >= blockedFromMs + 300 && at <= blockedUntilMs);
  assert.ok(during.length >= 20, `${during.length} requests while the API thread was blocked for 1.2 s`);
});
