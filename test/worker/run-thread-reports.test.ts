/**
 * A run thread's progress and page counts reach the service a few times a second, not per page
 * (docs/design/crawl.md, A message protocol, not shared objects), and nothing is lost at the end.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CrawlProgress } from '../../src/run-data/index.js';
import { RunThreadReports } from '../../src/worker/run-thread-reports.js';
import type { FromRunThread } from '../../src/worker/run-thread-protocol.js';

const INTERVAL_MS = 50;

function progressOf(crawled: number): CrawlProgress {
  return { crawled, total: crawled + 10, errors: 0, errorKinds: {} };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('pages and progress within one interval arrive as one message of each, with the latest progress', async () => {
  const sent: FromRunThread[] = [];
  const reports = new RunThreadReports((message) => sent.push(message), INTERVAL_MS);
  for (let page = 1; page <= 100; page++) {
    reports.pageFetched(page % 10 === 0 ? 'http_4xx' : page === 7 ? 'connect' : undefined);
    reports.progressed(progressOf(page));
  }
  assert.deepEqual(sent, [], 'nothing is sent per page');
  await sleep(INTERVAL_MS * 3);
  assert.deepEqual(sent, [
    { type: 'pages', count: 100, failures: { http_4xx: 10, connect: 1 } },
    { type: 'progress', progress: progressOf(100) },
  ]);
  // Quiet since: no further message.
  await sleep(INTERVAL_MS * 2);
  assert.equal(sent.length, 2);
});

test('a flush at the run end sends what is pending at once, and counts start over', async () => {
  const sent: FromRunThread[] = [];
  const reports = new RunThreadReports((message) => sent.push(message), INTERVAL_MS);
  reports.pageFetched(undefined);
  reports.pageFetched('timeout');
  reports.progressed(progressOf(2));
  reports.flush();
  assert.deepEqual(sent, [
    { type: 'pages', count: 2, failures: { timeout: 1 } },
    { type: 'progress', progress: progressOf(2) },
  ]);
  // The flush cancelled the timer: nothing is sent twice.
  await sleep(INTERVAL_MS * 2);
  assert.equal(sent.length, 2);
  reports.pageFetched(undefined);
  reports.flush();
  assert.deepEqual(sent.at(-1), { type: 'pages', count: 1, failures: {} });
  reports.flush();
  assert.equal(sent.length, 3, 'an empty flush sends nothing');
});
