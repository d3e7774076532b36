/**
 * The per-host pace across threads (docs/reference/crawl-rules.md, Pacing): one HostPacer in a
 * thread of its own (pace-thread.ts), asked by each run thread over a port of its own with a
 * message round trip per request start. Plain messages, so the pace could later be a network
 * service.
 */
import type { MessagePort } from 'node:worker_threads';
import type { HostPace, HostPermit, HostPacer } from '../crawler/index.js';

/** What the pace thread is started with. */
export interface PaceThreadData {
  /** Requests to one host in progress at once, over all runs (KUMO_HOST_CONCURRENCY). */
  perHostLimit: number;
  /**
   * With a database several processes share: its URL and this process's worker name, so one
   * process at a time sends requests to a host (docs/design/scale-out.md, Shared host pace).
   */
  shared?: {
    databaseUrl: string;
    owner: string;
    /** How long a host is held unrenewed: a dead process's hosts are free no later than its runs. */
    holdMs: number;
  };
}

/** To the pace thread: serve one more run thread, on this port. */
export type PaceThreadMessage =
  | { type: 'connect'; port: MessagePort }
  /** The service is stopping (its runs have ended): hosts held in a shared database go back. */
  | { type: 'close' };

/** From the pace thread: the hosts are given back (an answer to `close`). */
export interface PaceThreadClosed {
  type: 'closed';
}

/** From the pace thread: the shared database failed a tenure statement (it is tried again). */
export interface PaceThreadWarning {
  type: 'warning';
  message: string;
}

export type PaceRequest =
  | { type: 'pace-acquire'; id: number; host: string; gapMs: number }
  /** The thread stopped waiting (its run stopped): the wait is dropped, or the permit released. */
  | { type: 'pace-abandon'; id: number }
  /** The request of a granted permit is being sent: the host's pace counts from now. */
  | { type: 'pace-started'; id: number }
  | { type: 'pace-release'; id: number };

export type PaceAnswer = { type: 'pace-granted'; id: number };

/** The run thread's side: a HostPace whose permits are granted by the pace thread. */
export class RemoteHostPace implements HostPace {
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (permit: HostPermit) => void; reject: (error: Error) => void }
  >();
  private lostBecause: Error | undefined;

  constructor(private readonly send: (request: PaceRequest) => void) {}

  acquire(host: string, gapMs: number, signal: AbortSignal): Promise<HostPermit> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.lostBecause !== undefined) return Promise.reject(this.lostBecause);
    const id = this.nextId++;
    return new Promise<HostPermit>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(id);
        this.send({ type: 'pace-abandon', id });
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (permit) => {
          signal.removeEventListener('abort', onAbort);
          resolve(permit);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.send({ type: 'pace-acquire', id, host, gapMs });
    });
  }

  /** A grant from the pace thread; one for a wait abandoned meanwhile is released there. */
  granted(answer: PaceAnswer): void {
    const waiter = this.waiting.get(answer.id);
    if (waiter === undefined) return;
    this.waiting.delete(answer.id);
    let released = false;
    let started = false;
    waiter.resolve({
      started: () => {
        if (started || released) return;
        started = true;
        this.send({ type: 'pace-started', id: answer.id });
      },
      release: () => {
        if (released) return;
        released = true;
        this.send({ type: 'pace-release', id: answer.id });
      },
    });
  }

  /**
   * The pace thread is gone: waits fail and so does every later acquire, so the run ends with
   * the reason instead of waiting for a grant that cannot come.
   */
  lost(reason: Error): void {
    this.lostBecause = reason;
    for (const waiter of this.waiting.values()) waiter.reject(reason);
    this.waiting.clear();
  }
}

/**
 * The pace thread's side for one run thread: asks the shared pacer and answers. When the thread
 * ends, whatever it held or waited for is given back, so a crashed run never blocks a host.
 */
export class PaceBroker {
  private readonly waits = new Map<number, AbortController>();
  private readonly permits = new Map<number, HostPermit>();

  constructor(
    private readonly pacer: HostPacer,
    private readonly answer: (answer: PaceAnswer) => void,
  ) {}

  handle(request: PaceRequest): void {
    switch (request.type) {
      case 'pace-acquire': {
        const wait = new AbortController();
        this.waits.set(request.id, wait);
        this.pacer.acquire(request.host, request.gapMs, wait.signal).then(
          (permit) => {
            this.waits.delete(request.id);
            this.permits.set(request.id, permit);
            this.answer({ type: 'pace-granted', id: request.id });
          },
          () => this.waits.delete(request.id),
        );
        return;
      }
      case 'pace-abandon':
        this.waits.get(request.id)?.abort();
        this.release(request.id);
        return;
      case 'pace-started':
        this.permits.get(request.id)?.started();
        return;
      case 'pace-release':
        this.release(request.id);
        return;
    }
  }

  /** The thread is gone: its waits are dropped and its permits released. */
  close(): void {
    for (const wait of this.waits.values()) wait.abort();
    for (const id of [...this.permits.keys()]) this.release(id);
  }

  private release(id: number): void {
    this.permits.get(id)?.release();
    this.permits.delete(id);
  }
}
