/**
 * How each host of a run is faring over time (docs/reference/crawl-rules.md, Slowing down and
 * pausing): a 429 or 503 slows every later request of the run to that host, not only the URL
 * that got it, and a run of server errors pauses the host with a growing backoff, then gives it
 * up, rather than spending the documents limit on a site that is down.
 */

/** The gap a 429 or 503 sets first between two requests to the host; each later one doubles it. */
export const FIRST_SLOWDOWN_MS = 1000;
/** The gap never grows past this. */
export const MAX_SLOWDOWN_MS = 60_000;
/** This many answers below 500 in a row (other than 429) halve the gap again. */
export const ANSWERS_TO_EASE = 10;
/** Pages whose last answer was 5xx, in a row, that pause the host. */
export const ERRORS_TO_PAUSE = 5;
/** The first pause unless the service sets another (KUMO_HOST_PAUSE_MS); each failed probe doubles it. */
export const FIRST_PAUSE_MS = 30_000;
/** A pause never grows past this (nor past the first pause's 16 times). */
export const MAX_PAUSE_MS = 10 * 60_000;
/** Pauses in a row (each probe after one failing again) after which the host is given up. */
export const PAUSES_TO_GIVE_UP = 4;

import type { HostEventsRecord as HostEvents, RunDataStore } from '../run-data/index.js';
import { sleep, untilAborted } from '../util/index.js';
import { MAX_RETRY_AFTER_MS } from './page-fetch.js';

interface HostState {
  gapMs: number;
  /** Epoch ms before which no request may start. */
  resumeAtMs: number;
  /** Answers below 500 (other than 429) since the gap last changed. */
  goodAnswers: number;
  /** Pages in a row whose last answer was 5xx. */
  serverErrors: number;
  /** Pauses in a row: each probe after a pause that fails again adds one. */
  pausesInRow: number;
  /** A pause ended and no page has answered since: the next 5xx pauses again at once. */
  probing: boolean;
  /** When the last pause ends: a page started before that tells nothing of a probe. */
  pauseEndsAtMs: number;
  events: HostEvents;
}

export interface HostHealthOptions {
  nowMs: () => number;
  firstPauseMs: number;
  /** Told whenever a host's events change, so they survive a resumed run. */
  changed: (events: HostEvents) => void;
  /** The events a resumed run had recorded before. */
  earlier: readonly HostEvents[];
}

/** Rows the run wrote for URLs of given-up hosts (they are not fetches of documents_limit). */
export function notFetchedRowsOf(store: RunDataStore): number {
  return store.hostEvents().reduce((sum, events) => sum + events.notFetched, 0);
}

export class HostHealth {
  private readonly hosts = new Map<string, HostState>();
  /** The probe page of each host in a pause's wake, while it is fetched. */
  private readonly probes = new Map<string, Promise<void>>();
  private readonly nowMs: () => number;

  constructor(private readonly options: HostHealthOptions) {
    this.nowMs = options.nowMs;
    for (const events of options.earlier) this.stateOf(events.host).events = { ...events };
  }

  /** The gap the host's answers call for between two requests (0 when none). */
  gapMs(host: string): number {
    return this.hosts.get(host)?.gapMs ?? 0;
  }

  /** Epoch ms before which the run sends nothing to the host. */
  resumeAtMs(host: string): number {
    return this.hosts.get(host)?.resumeAtMs ?? 0;
  }

  givenUp(host: string): boolean {
    return this.hosts.get(host)?.events.givenUp ?? false;
  }

  /**
   * After a pause, the first page to start is the host's probe: answers the function ending it
   * (call it once the page has ended, whatever happened), or undefined when this page is none.
   */
  beginProbe(host: string): (() => void) | undefined {
    if (!this.hosts.get(host)?.probing || this.probes.has(host)) return undefined;
    let end!: () => void;
    this.probes.set(host, new Promise<void>((resolve) => (end = resolve)));
    return () => {
      this.probes.delete(host);
      end();
    };
  }

  /**
   * Waits until the host may be sent a request: its Retry-After hold or pause is over and, after a
   * pause, the probe page has its answer. False when `signal` aborted first.
   */
  async waitForTurn(host: string, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      const waitMs = this.resumeAtMs(host) - this.nowMs();
      const probe = this.probes.get(host);
      if (waitMs <= 0 && probe === undefined) return true;
      await (probe === undefined ? sleep(waitMs, signal) : untilAborted(probe, signal));
      if (signal.aborted) return false;
    }
  }

  /** Every HTTP answer of the host, each redirect hop and retry included. */
  answered(host: string, status: number, retryAfterMs: number | undefined): void {
    const state = this.stateOf(host);
    if (status === 429 || status === 503) {
      state.gapMs = Math.min(MAX_SLOWDOWN_MS, Math.max(FIRST_SLOWDOWN_MS, state.gapMs * 2));
      state.goodAnswers = 0;
      // The URL turned away is retried after Retry-After (page-fetch.ts); the host's other URLs
      // follow one gap later, so the two do not arrive together.
      const waitMs = Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS) + state.gapMs;
      state.resumeAtMs = Math.max(state.resumeAtMs, this.nowMs() + waitMs);
      state.events.slowdowns += 1;
      state.events.maxGapMs = Math.max(state.events.maxGapMs, state.gapMs);
      this.options.changed({ ...state.events });
      return;
    }
    if (status >= 500) {
      state.goodAnswers = 0;
      return;
    }
    if (state.gapMs === 0) return;
    state.goodAnswers += 1;
    if (state.goodAnswers >= ANSWERS_TO_EASE) {
      state.goodAnswers = 0;
      state.gapMs = state.gapMs / 2 < FIRST_SLOWDOWN_MS ? 0 : state.gapMs / 2;
    }
  }

  /**
   * A page of the host ended, after its retries, with `status` (undefined: no answer, which is
   * the network's word, not the server's, and counts neither way). `startedAtMs` is when its
   * request was allowed to start: the errors of pages sent before a pause ended were already
   * counted in the streak that caused it.
   */
  pageEnded(host: string, status: number | undefined, startedAtMs: number): void {
    if (status === undefined) return;
    const state = this.stateOf(host);
    if (status >= 500 && startedAtMs < state.pauseEndsAtMs) return;
    if (status < 500) {
      state.serverErrors = 0;
      state.pausesInRow = 0;
      state.probing = false;
      return;
    }
    state.serverErrors += 1;
    if (!state.probing && state.serverErrors < ERRORS_TO_PAUSE) return;
    state.serverErrors = 0;
    state.pausesInRow += 1;
    if (state.pausesInRow > PAUSES_TO_GIVE_UP) {
      state.events.givenUp = true;
    } else {
      const pauseMs = Math.min(MAX_PAUSE_MS, this.options.firstPauseMs * 2 ** (state.pausesInRow - 1));
      state.resumeAtMs = Math.max(state.resumeAtMs, this.nowMs() + pauseMs);
      state.pauseEndsAtMs = state.resumeAtMs;
      state.probing = true;
      state.events.pauses += 1;
    }
    this.options.changed({ ...state.events });
  }

  /** A URL of a given-up host was not fetched. */
  notFetched(host: string): void {
    const state = this.stateOf(host);
    state.events.notFetched += 1;
    this.options.changed({ ...state.events });
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (state === undefined) {
      state = {
        gapMs: 0,
        resumeAtMs: 0,
        goodAnswers: 0,
        serverErrors: 0,
        pausesInRow: 0,
        probing: false,
        pauseEndsAtMs: 0,
        events: { host, slowdowns: 0, maxGapMs: 0, pauses: 0, givenUp: false, notFetched: 0 },
      };
      this.hosts.set(host, state);
    }
    return state;
  }
}
