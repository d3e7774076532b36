/**
 * `kumo crawl --out DIR` resumes the interrupted crawl in DIR only when it is the same crawl: a
 * crawl of other seeds or options is refused (exit 2) with what the folder holds, the command
 * that resumes it and --fresh, which discards it. A resumed crawl says how far it had come, and
 * its rate counts only the pages fetched since it resumed.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readCsvGz, recordsOf } from '../support/artifact-readers.js';
import { runCli } from '../support/cli-runner.js';
import { type LocalServer, listenLocally } from '../support/local-server.js';

/** Delay of the gate page once it answers: the resumed crawl takes a measurable time. */
const GATE_DELAY_MS = 400;

interface Site extends LocalServer {
  requests: string[];
}

/**
 * A site of `/` linking `pages` in order; with `holdGate`, its `/gate` page (linked last) never
 * answers, so a crawl at concurrency 1 is caught there with every other page fetched.
 */
async function startSite(pages: string[], gate: { hold: boolean } | undefined): Promise<Site> {
  const requests: string[] = [];
  const links = [...pages, ...(gate ? ['/gate'] : [])].map((page) => `<a href="${page}">${page}</a>`);
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const html = (body: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>${req.url}</title></head><body>${body}</body></html>`);
    };
    if (req.url === '/') html(links.join(' '));
    else if (req.url === '/gate') {
      if (!gate!.hold) setTimeout(() => html('gate'), GATE_DELAY_MS);
    } else if (pages.includes(req.url ?? '')) html('page');
    else {
      res.writeHead(404);
      res.end();
    }
  });
  return { ...(await listenLocally(server)), requests };
}

const gate = { hold: true };
let siteA: Site;
let siteB: Site;
let folder: string;

before(async () => {
  siteA = await startSite(['/a1', '/a2', '/a3'], gate);
  siteB = await startSite(['/b1'], undefined);
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-crawl-resume-'));
});
after(async () => {
  await siteA.close();
  await siteB.close();
  await rm(folder, { recursive: true, force: true });
});

/** Runs `kumo crawl` and SIGINTs it once it waits for the held gate page. */
async function interruptedCrawl(args: string[]): Promise<void> {
  const gateRequests = () => siteA.requests.filter((url) => url === '/gate').length;
  const before = gateRequests();
  const running = runCli(['crawl', ...args]);
  const until = Date.now() + 20_000;
  while (gateRequests() === before) {
    assert.ok(Date.now() < until, 'the crawl reached the gate');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  running.child.kill('SIGINT');
  const result = await running;
  assert.equal(result.code, 130, result.stderr);
}

const urlsIn = (out: string) =>
  recordsOf(readCsvGz(path.join(out, 'url_list.csv.gz')))
    .map((row) => new URL(row.crawl_url!).pathname)
    .sort();

describe('kumo crawl into a folder holding an interrupted crawl', () => {
  test('another crawl is refused, the same one resumes, --fresh starts afresh', async () => {
    const out = path.join(folder, 'out');
    const crawlA = () => [`${siteA.baseUrl}/`, '--concurrency', '1', '--out', out];
    gate.hold = true;
    await interruptedCrawl(crawlA());

    // Another site into the same folder: refused, saying what is there and what to do.
    const other = await runCli(['crawl', `${siteB.baseUrl}/`, '--concurrency', '1', '--out', out]);
    assert.equal(other.code, 2, other.stderr);
    assert.equal(
      other.stderr,
      `kumo: ${out} holds an interrupted crawl with other seeds (4 pages done, 1 queued); ` +
        `resume it with: kumo crawl ${siteA.baseUrl}/ --concurrency 1 --out ${out}; ` +
        'or add --fresh to discard it and start this crawl\n',
    );
    assert.deepEqual(siteB.requests, [], 'the other site is not crawled');
    assert.ok(existsSync(path.join(out, '.kumo-work')), 'the interrupted crawl is kept');

    // The same site with another option: refused too, naming the option.
    const deeper = await runCli(['crawl', ...crawlA(), '--depth', '5']);
    assert.equal(deeper.code, 2, deeper.stderr);
    assert.match(deeper.stderr, /holds an interrupted crawl with other --depth \(4 pages done, 1 queued\)/);

    // The same command again: resumed where it stopped.
    gate.hold = false;
    const resumed = await runCli(['crawl', ...crawlA()]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /^resuming: 4 pages done, 1 queued$/m);
    assert.deepEqual(urlsIn(out), ['/', '/a1', '/a2', '/a3', '/gate']);
    assert.equal(
      siteA.requests.filter((url) => url === '/a1').length,
      1,
      'fetched pages are not fetched again',
    );
    // The rate counts the one page fetched since the resume, not the five of the whole crawl.
    const final = /pages 5 done \/ 0 queued \| ([\d.]+) pages\/s \| \d+ errors \| ([\d.]+) s$/m.exec(
      resumed.stderr,
    );
    assert.ok(final, resumed.stderr);
    const [rate, seconds] = [Number(final[1]), Number(final[2])];
    assert.ok(seconds >= GATE_DELAY_MS / 1000, resumed.stderr);
    assert.ok(rate * seconds < 2.5, `${rate} pages/s over ${seconds} s for one page: ${resumed.stderr}`);

    // Interrupted again, then another site with --fresh: the old crawl is dropped.
    gate.hold = true;
    await interruptedCrawl(crawlA());
    const fresh = await runCli(['crawl', `${siteB.baseUrl}/`, '--out', out, '--fresh']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.doesNotMatch(fresh.stderr, /resuming/);
    assert.deepEqual(urlsIn(out), ['/', '/b1']);
    assert.equal(existsSync(path.join(out, '.kumo-work')), false);
  });
});
