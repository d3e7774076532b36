import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import type * as PromClient from 'prom-client';

/**
 * Sampling period of the delay monitor: a hold of the API thread shorter than this is not seen,
 * which is fine for what the gauges are for (holds of tens of milliseconds and more that delay
 * every other request of the process; docs/operations.md, Monitoring).
 */
const RESOLUTION_MS = 10;

/** The quantiles of `kumo_event_loop_delay_seconds`. */
const QUANTILES = [0.5, 0.9, 0.99] as const;

const NANOS_PER_SECOND = 1e9;

/**
 * One monitor for the whole process, started with the first service: every service of a process
 * (tests run several) shares the thread it watches.
 */
let monitor: IntervalHistogram | undefined;

/** Starts watching the event loop of this process, so that the first scrape covers the time since the start. */
export function watchEventLoopDelay(): void {
  if (monitor !== undefined) return;
  monitor = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  monitor.enable();
}

/**
 * The gauges of the event loop's delay since the previous scrape of the process: its worst
 * (`kumo_event_loop_delay_max_seconds`, the longest time the API thread was held by one piece of
 * work) and its quantiles. Reading them starts the window again, so each scrape shows the worst
 * hold since the one before.
 */
export function registerEventLoopDelay(client: typeof PromClient, registry: PromClient.Registry): void {
  watchEventLoopDelay();
  // Both gauges show the same window: the first of them a scrape collects reads and resets the
  // monitor, the other takes what it read; a gauge collected again starts the next window.
  let window: { max: number; quantiles: Map<number, number> } | undefined;
  const readers = new Set<string>();
  const readWindow = (reader: string) => {
    if (window === undefined || readers.has(reader)) {
      window = takeWindow(monitor!);
      readers.clear();
    }
    readers.add(reader);
    return window;
  };
  const max: PromClient.Gauge = new client.Gauge({
    name: 'kumo_event_loop_delay_max_seconds',
    help: 'Longest delay of the event loop (the API thread held by one piece of work) since the previous scrape',
    registers: [registry],
    collect: () => {
      max.set(readWindow('max').max);
    },
  });
  const quantiles: PromClient.Gauge<'quantile'> = new client.Gauge({
    name: 'kumo_event_loop_delay_seconds',
    help: 'Quantiles of the event loop delay since the previous scrape',
    labelNames: ['quantile'] as const,
    registers: [registry],
    collect: () => {
      for (const [q, seconds] of readWindow('quantiles').quantiles)
        quantiles.set({ quantile: String(q) }, seconds);
    },
  });
}

/** What the monitor saw since its last reset, in seconds (0 when it saw nothing); resets it. */
function takeWindow(histogram: IntervalHistogram): { max: number; quantiles: Map<number, number> } {
  const seen = histogram.count > 0;
  const seconds = (nanos: number) => (seen ? nanos / NANOS_PER_SECOND : 0);
  const window = {
    max: seconds(histogram.max),
    quantiles: new Map(QUANTILES.map((q) => [q, seconds(histogram.percentile(q * 100))])),
  };
  histogram.reset();
  return window;
}
