import { performance } from 'node:perf_hooks';
import type { HostTenures } from '../store/index.js';
import type { HttpFetcher } from './http-fetcher.js';
import { whenRequestSent } from './request-sent.js';

/** One request start to a host; released when the request (all its hops) has ended. */
export interface HostPermit {
  /**
   * The request is being sent now: the host's pace counts from here rather than from the grant,
   * so time spent between the two (a busy thread, a message hop) never shortens the gap.
   */
  started(): void;
  release(): void;
}

/**
 * Per-host politeness (docs/reference/crawl-rules.md, Pacing): the service holds one for every
 * run it executes, so two runs crawling one host share its pace and its budget of requests in
 * progress. Every argument and answer is plain data, so the pace can be kept in another thread
 * (docs/design/crawl.md, Crawl threads) or, later, another process.
 */
export interface HostPace {
  /**
   * Resolves when a request to `host` (host:port) may start: at least `gapMs` after the previous
   * request start to that host, whichever run made it, and with fewer requests to the host in
   * progress than the per-host budget. Waiters of one host are served in arrival order. Rejects
   * with the signal's reason when the signal aborts first.
   */
  acquire(host: string, gapMs: number, signal: AbortSignal): Promise<HostPermit>;
}

/** The pace shared by several processes: one holds a host at a time (store/host-tenures.ts). */
export interface SharedPace {
  tenures: HostTenures;
  /** A host another process waits for is handed over once held this long (default 5 s). */
  minTenureMs?: number;
  /** A held host with nothing to do is given back after this long (default 1 s). */
  idleTenureMs?: number;
}

interface Waiter {
  gapMs: number;
  grant(permit: HostPermit): void;
}

interface HostState {
  lastStartMs: number;
  /** A permit with a gap was granted and its request has not started yet: the next one waits. */
  starting: boolean;
  inProgress: number;
  waiters: Waiter[];
  timer: NodeJS.Timeout | undefined;
  /**
   * With tenures shared by several processes: whether this one holds the host, is asking for it,
   * or is handing it over (no new start; given back once its requests have ended).
   */
  tenure: 'none' | 'asking' | 'held' | 'yielding';
  /** Monotonic ms before which no request may start (the previous holder's pace). */
  notBeforeMs: number;
  /** Monotonic ms the hold began: a host is held a while before it is handed over. */
  heldSinceMs: number;
  /** The gap of the last request started, which the next holder keeps after it. */
  lastGapMs: number;
  /** While asking for the host: aborted when nothing waits for it any more. */
  asking: AbortController | undefined;
}

/** Hosts idle this long are forgotten: no pace allowed by the settings is longer. */
const FORGET_IDLE_MS = 10 * 60_000;
/** The table is swept for idle hosts when it has grown by this many entries. */
const SWEEP_EVERY_HOSTS = 1000;
/** A held host with nothing to do is given back after this long (with tenures). */
const IDLE_TENURE_MS = 1000;
/** A host another process waits for is handed over once held this long (with tenures). */
const MIN_TENURE_MS = 5000;
/** A host the tenures could not be asked for (the store failing) is asked for again after this long. */
const RETRY_TENURE_MS = 1000;

/**
 * The pace of every host in one place: its last request start, its requests in progress and the
 * requests waiting for it. Tracks hosts only, never URLs, and forgets idle hosts, so its memory
 * does not grow with the size of the crawls.
 */
export class HostPacer implements HostPace {
  private readonly hosts = new Map<string, HostState>();
  private sweepAt = SWEEP_EVERY_HOSTS;
  private readonly tenures: HostTenures | undefined;
  private readonly minTenureMs: number;
  private readonly idleTenureMs: number;

  /**
   * @param perHostLimit requests to one host in progress at once, over all runs.
   * @param nowMs monotonic milliseconds.
   * @param shared which process may send to each host, when several share the pace, and how
   *   long a host is held at least before it is handed over and at most while idle.
   */
  constructor(
    private readonly perHostLimit: number,
    private readonly nowMs: () => number = () => performance.now(),
    shared?: SharedPace,
  ) {
    this.tenures = shared?.tenures;
    this.minTenureMs = shared?.minTenureMs ?? MIN_TENURE_MS;
    this.idleTenureMs = shared?.idleTenureMs ?? IDLE_TENURE_MS;
    this.tenures?.onYield((host, lost) => {
      const state = this.hosts.get(host);
      if (state?.tenure !== 'held') return;
      const heldMs = this.nowMs() - state.heldSinceMs;
      if (!lost && heldMs < this.minTenureMs) {
        // Asked again by the waiting process at its next try; held a little longer meanwhile.
        return;
      }
      state.tenure = 'yielding';
      this.pump(host, state);
    });
  }

  acquire(host: string, gapMs: number, signal: AbortSignal): Promise<HostPermit> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const state = this.stateOf(host);
    return new Promise<HostPermit>((resolve, reject) => {
      const onAbort = () => {
        const index = state.waiters.indexOf(waiter);
        if (index >= 0) state.waiters.splice(index, 1);
        if (state.waiters.length === 0) state.asking?.abort();
        reject(abortReason(signal));
        // The head may have been what held the others back.
        this.pump(host, state);
      };
      const waiter: Waiter = {
        gapMs: Math.max(0, gapMs),
        grant: (permit) => {
          signal.removeEventListener('abort', onAbort);
          resolve(permit);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      state.waiters.push(waiter);
      this.pump(host, state);
    });
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (state === undefined) {
      if (this.hosts.size >= this.sweepAt) this.sweep();
      state = {
        lastStartMs: Number.NEGATIVE_INFINITY,
        starting: false,
        inProgress: 0,
        waiters: [],
        timer: undefined,
        tenure: this.tenures === undefined ? 'held' : 'none',
        notBeforeMs: Number.NEGATIVE_INFINITY,
        heldSinceMs: 0,
        lastGapMs: 0,
        asking: undefined,
      };
      this.hosts.set(host, state);
    }
    return state;
  }

  /** Grants what may start now, and sets a timer for the head waiter that may start later. */
  private pump(host: string, state: HostState): void {
    clearTimeout(state.timer);
    state.timer = undefined;
    if (this.tenures !== undefined && !this.tenureAllows(host, state)) return;
    for (;;) {
      const head = state.waiters[0];
      if (head === undefined || state.starting || state.inProgress >= this.perHostLimit) return;
      const now = this.nowMs();
      const readyAt = Math.max(state.lastStartMs + head.gapMs, state.notBeforeMs);
      if (readyAt > now) {
        state.timer = setTimeout(() => this.pump(host, state), Math.max(1, Math.ceil(readyAt - now)));
        return;
      }
      state.waiters.shift();
      state.lastStartMs = now;
      state.lastGapMs = head.gapMs;
      state.inProgress += 1;
      // Without a gap the start time does not matter, and requests need not wait for each other.
      state.starting = head.gapMs > 0;
      head.grant(this.permitFor(host, state, state.starting));
    }
  }

  /**
   * Whether this process may start requests to the host now (with tenures); asks for the host,
   * gives it back when idle or yielding, and arms the timers that do so later.
   */
  private tenureAllows(host: string, state: HostState): boolean {
    const tenures = this.tenures!;
    const idle = state.inProgress === 0 && !state.starting;
    if (state.tenure === 'none' || state.tenure === 'asking') {
      if (state.tenure === 'none' && state.waiters.length > 0) {
        state.tenure = 'asking';
        const asking = new AbortController();
        state.asking = asking;
        tenures.take(host, asking.signal).then(
          (freeAtMs) => {
            state.asking = undefined;
            state.tenure = 'held';
            state.heldSinceMs = this.nowMs();
            // The wall-clock time of the previous holder, on this process's monotonic clock.
            state.notBeforeMs = freeAtMs - Date.now() + this.nowMs();
            this.pump(host, state);
          },
          () => {
            state.asking = undefined;
            state.tenure = 'none';
            if (state.waiters.length === 0) return;
            // Requests came while an abandoned take ended: ask now. The store failed: a little later.
            if (asking.signal.aborted) this.pump(host, state);
            else setTimeout(() => this.pump(host, state), RETRY_TENURE_MS).unref();
          },
        );
      }
      return false;
    }
    if (state.tenure === 'yielding' || (state.waiters.length === 0 && idle)) {
      if (!idle) return false;
      const give = () => {
        state.timer = undefined;
        state.tenure = 'none';
        // The later of this holder's own pace and the one it was given (it may have started nothing).
        const readyAtMs = Math.max(state.notBeforeMs, state.lastStartMs + state.lastGapMs);
        const freeAtMs = readyAtMs - this.nowMs() + Date.now();
        tenures.give(host, Math.max(0, Math.round(freeAtMs)));
        // Waiters left after a hand-over ask again, behind the process that wanted the host.
        if (state.waiters.length > 0) this.pump(host, state);
      };
      if (state.tenure === 'yielding') give();
      else {
        state.timer = setTimeout(give, this.idleTenureMs);
        // A process ending meanwhile need not give the host back: its hold lapses.
        state.timer.unref();
      }
      return false;
    }
    return true;
  }

  private permitFor(host: string, state: HostState, paced: boolean): HostPermit {
    let starting = paced;
    let released = false;
    const startNow = () => {
      if (!starting) return;
      starting = false;
      state.starting = false;
      state.lastStartMs = this.nowMs();
    };
    return {
      started: () => {
        if (!starting) return;
        startNow();
        this.pump(host, state);
      },
      release: () => {
        if (released) return;
        released = true;
        startNow();
        state.inProgress -= 1;
        this.pump(host, state);
      },
    };
  }

  /**
   * Gives back every held host nothing is sent to (with tenures): the process is stopping, so
   * another process's crawl of them goes on without waiting for the holds to lapse.
   */
  giveBackIdleHosts(): void {
    for (const [host, state] of this.hosts) {
      if (state.tenure !== 'held' && state.tenure !== 'yielding') continue;
      if (state.inProgress > 0 || state.starting || state.waiters.length > 0) continue;
      state.tenure = 'yielding';
      this.pump(host, state);
    }
  }

  private sweep(): void {
    const now = this.nowMs();
    for (const [host, state] of this.hosts) {
      const idle = state.inProgress === 0 && state.waiters.length === 0 && state.tenure !== 'asking';
      // A host still held is forgotten once given back (its give timer holds the state meanwhile).
      const given = this.tenures === undefined || state.tenure === 'none';
      if (idle && given && now - state.lastStartMs > FORGET_IDLE_MS) this.hosts.delete(host);
    }
    this.sweepAt = this.hosts.size + SWEEP_EVERY_HOSTS;
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/**
 * `fetcher` with the permit told when the first hop of its request leaves: when its headers are
 * written, after any connection setup, or at the latest when its answer arrives.
 */
export function pacedFetcher(fetcher: HttpFetcher, permit: HostPermit): HttpFetcher {
  return {
    fetchHop: async (hop) => {
      const forget = whenRequestSent(hop.url, () => permit.started());
      try {
        return await fetcher.fetchHop(hop);
      } finally {
        forget();
        permit.started();
      }
    },
    close: () => fetcher.close(),
  };
}
