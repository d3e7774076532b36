/**
 * GET /metrics shows the worst hold of the API thread since the previous scrape
 * (`kumo_event_loop_delay_max_seconds`) and the quantiles of the event loop's delay
 * (docs/operations.md, Monitoring): a piece of work that holds the thread shows in the next
 * scrape, and the scrape after it starts a new window.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sleep, startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const HOLD_MS = 300;

let kumo: TestService;

before(async () => {
  kumo = await startTestService();
});

after(async () => {
  await kumo.close();
});

/** The samples of the scrape whose name starts with `kumo_event_loop_delay`, by name and labels. */
async function loopDelaySamples(): Promise<Map<string, number>> {
  const response = await fetch(`${kumo.url}/metrics`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  assert.equal(response.status, 200);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^(kumo_event_loop_delay\S*) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/** Holds this thread, the one the service answers on, as a long synchronous job would. */
function holdThread(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: nothing else runs on the thread meanwhile
  }
}

test('a hold of the API thread shows in the next scrape as the worst delay, and the scrape after starts again', async () => {
  await loopDelaySamples();
  holdThread(HOLD_MS);
  // Lets the monitor's timer, late by the hold, record it.
  await sleep(50);

  const afterHold = await loopDelaySamples();
  const max = afterHold.get('kumo_event_loop_delay_max_seconds');
  assert.ok(max !== undefined, 'kumo_event_loop_delay_max_seconds is scraped');
  assert.ok(max >= (HOLD_MS * 0.8) / 1000, `worst delay ${max} s after a hold of ${HOLD_MS} ms`);
  assert.ok(max < 5, `worst delay ${max} s`);
  for (const quantile of ['0.5', '0.9', '0.99']) {
    const value = afterHold.get(`kumo_event_loop_delay_seconds{quantile="${quantile}"}`);
    assert.ok(value !== undefined && value > 0 && value <= max, `quantile ${quantile}: ${value}`);
  }

  await sleep(100);
  const next = await loopDelaySamples();
  const nextMax = next.get('kumo_event_loop_delay_max_seconds');
  assert.ok(nextMax !== undefined && nextMax > 0, `worst delay of the next window: ${nextMax}`);
  assert.ok(nextMax < (HOLD_MS * 0.5) / 1000, `the next window does not carry the hold: ${nextMax} s`);
});
