/**
 * A host's health over a run (docs/reference/crawl-rules.md, Slowing down and pausing), with the
 * time it reads given by the test: 429/503 slow the host and ease again, a streak of server
 * errors pauses it with a doubling pause, and a host that fails every probe is given up.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ANSWERS_TO_EASE,
  ERRORS_TO_PAUSE,
  FIRST_SLOWDOWN_MS,
  HostHealth,
  MAX_SLOWDOWN_MS,
  PAUSES_TO_GIVE_UP,
} from '../../src/crawler/host-health.js';
import { MAX_RETRY_AFTER_MS } from '../../src/crawler/page-fetch.js';
import type { HostEventsRecord } from '../../src/run-data/index.js';

const HOST = 'docs.example:8080';

function healthAt(time: { now: number }, changes: HostEventsRecord[] = [], earlier: HostEventsRecord[] = []) {
  return new HostHealth({
    nowMs: () => time.now,
    firstPauseMs: 1000,
    changed: (events) => changes.push(events),
    earlier,
  });
}

describe('HostHealth', () => {
  test('a 429 with Retry-After holds the host that long and one gap more, and slows it; good answers ease it', () => {
    const time = { now: 10_000 };
    const changes: HostEventsRecord[] = [];
    const health = healthAt(time, changes);
    health.answered(HOST, 429, 3000);
    assert.equal(health.resumeAtMs(HOST), 10_000 + 3000 + FIRST_SLOWDOWN_MS);
    assert.equal(health.gapMs(HOST), FIRST_SLOWDOWN_MS);
    time.now = 13_500;
    health.answered(HOST, 503, undefined);
    // Without Retry-After the host is held for its new gap.
    assert.equal(health.gapMs(HOST), 2 * FIRST_SLOWDOWN_MS);
    assert.equal(health.resumeAtMs(HOST), 13_500 + 2 * FIRST_SLOWDOWN_MS);
    assert.deepEqual(changes.at(-1), {
      host: HOST,
      slowdowns: 2,
      maxGapMs: 2000,
      pauses: 0,
      givenUp: false,
      notFetched: 0,
    });
    for (let answer = 0; answer < ANSWERS_TO_EASE; answer += 1) health.answered(HOST, 200, undefined);
    assert.equal(health.gapMs(HOST), FIRST_SLOWDOWN_MS);
    // A 500 is no sign of health: easing counts answers below 500 in a row again.
    for (let answer = 1; answer < ANSWERS_TO_EASE; answer += 1) health.answered(HOST, 200, undefined);
    health.answered(HOST, 500, undefined);
    assert.equal(health.gapMs(HOST), FIRST_SLOWDOWN_MS);
    for (let answer = 0; answer < ANSWERS_TO_EASE; answer += 1) health.answered(HOST, 404, undefined);
    assert.equal(health.gapMs(HOST), 0);
    assert.equal(health.gapMs('other.example'), 0);
  });

  test('the gap stops doubling at its maximum and a Retry-After is capped', () => {
    const time = { now: 0 };
    const health = healthAt(time);
    for (let answer = 0; answer < 20; answer += 1) health.answered(HOST, 429, undefined);
    assert.equal(health.gapMs(HOST), MAX_SLOWDOWN_MS);
    health.answered(HOST, 429, 24 * 3600_000);
    assert.equal(health.resumeAtMs(HOST), MAX_RETRY_AFTER_MS + MAX_SLOWDOWN_MS);
  });

  test('server errors in a row pause the host, each failed probe doubles the pause, then it is given up', () => {
    const time = { now: 0 };
    const changes: HostEventsRecord[] = [];
    const health = healthAt(time, changes);
    for (let page = 1; page < ERRORS_TO_PAUSE; page += 1) health.pageEnded(HOST, 500, time.now);
    assert.equal(health.resumeAtMs(HOST), 0);
    health.pageEnded(HOST, 502, time.now);
    assert.equal(health.resumeAtMs(HOST), 1000);
    // Pages sent before the pause ended tell nothing new.
    health.pageEnded(HOST, 500, 500);
    assert.equal(health.resumeAtMs(HOST), 1000);
    let pauseMs = 1000;
    for (let probe = 2; probe <= PAUSES_TO_GIVE_UP; probe += 1) {
      time.now = health.resumeAtMs(HOST);
      health.pageEnded(HOST, 500, time.now);
      pauseMs *= 2;
      assert.equal(health.resumeAtMs(HOST), time.now + pauseMs);
      assert.equal(health.givenUp(HOST), false);
    }
    time.now = health.resumeAtMs(HOST);
    health.pageEnded(HOST, 503, time.now);
    assert.equal(health.givenUp(HOST), true);
    health.notFetched(HOST);
    assert.deepEqual(changes.at(-1), {
      host: HOST,
      slowdowns: 0,
      maxGapMs: 0,
      pauses: PAUSES_TO_GIVE_UP,
      givenUp: true,
      notFetched: 1,
    });
  });

  test('an answer below 500 ends the streak; no answer at all counts neither way', () => {
    const time = { now: 0 };
    const health = healthAt(time);
    for (let page = 1; page < ERRORS_TO_PAUSE; page += 1) health.pageEnded(HOST, 500, 0);
    health.pageEnded(HOST, undefined, 0);
    health.pageEnded(HOST, 404, 0);
    for (let page = 1; page < ERRORS_TO_PAUSE; page += 1) health.pageEnded(HOST, 500, 0);
    assert.equal(health.resumeAtMs(HOST), 0);
    // After a pause, a good probe starts a fresh streak.
    health.pageEnded(HOST, 500, 0);
    time.now = health.resumeAtMs(HOST);
    health.pageEnded(HOST, 200, time.now);
    health.pageEnded(HOST, 500, time.now);
    assert.equal(health.resumeAtMs(HOST), 1000);
  });

  test('a resumed run keeps counting from the events it had recorded', () => {
    const changes: HostEventsRecord[] = [];
    const earlier = [{ host: HOST, slowdowns: 3, maxGapMs: 4000, pauses: 1, givenUp: false, notFetched: 0 }];
    const health = healthAt({ now: 0 }, changes, earlier);
    health.answered(HOST, 429, undefined);
    assert.equal(changes.at(-1)!.slowdowns, 4);
    assert.equal(changes.at(-1)!.maxGapMs, 4000);
  });
});
