/**
 * The worst hold of the service's API thread over an attack, from `/metrics`
 * (`kumo_event_loop_delay_max_seconds`, the worst event loop delay since the previous scrape;
 * docs/operations.md, Monitoring): scraped once before the attack to start the window, once after.
 */
import { callUntilReached } from './http-call.js';
import { ADMIN_TOKEN } from './kumo-serve.js';

const METRIC = 'kumo_event_loop_delay_max_seconds';

/** Seconds, or undefined when the scrape failed or the service does not have the metric. */
export async function scrapeWorstHold(kumoUrl: string): Promise<number | undefined> {
  // Waits for the service however long work an attack left behind holds it: the figure is that hold.
  const answer = await callUntilReached(
    `${kumoUrl}/metrics`,
    { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    1_800_000,
  );
  if (answer.status !== 200 || typeof answer.json !== 'string') return undefined;
  const line = answer.json.split('\n').find((text) => text.startsWith(`${METRIC} `));
  return line === undefined ? undefined : Number(line.slice(METRIC.length + 1));
}
