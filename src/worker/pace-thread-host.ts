import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import type {
  PaceThreadClosed,
  PaceThreadData,
  PaceThreadMessage,
  PaceThreadWarning,
} from './pace-protocol.js';

/**
 * The service's side of the pace thread (docs/design/crawl.md, Crawl threads): starts it with the
 * first run and hands each run thread a port to it. A thread that died is started again for the
 * next run; the runs it served fail, since their requests can no longer be paced.
 */
/** How long a stop waits for the pace thread to give its hosts back. */
const CLOSE_WAIT_MS = 2000;

export class PaceThreadHost {
  private thread: Worker | undefined;

  constructor(
    private readonly perHostLimit: number,
    private readonly failed: (error: Error) => void,
    /** With a shared database: the pace is shared with its other processes (PaceThreadData). */
    private readonly shared?: PaceThreadData['shared'],
    /** Told what the thread warns of (a tenure statement the shared database failed). */
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  /** A port for one run thread, to be transferred to it. */
  connect(): MessagePort {
    const thread = (this.thread ??= this.start());
    const { port1, port2 } = new MessageChannel();
    const message: PaceThreadMessage = { type: 'connect', port: port1 };
    thread.postMessage(message, [port1]);
    return port2;
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (thread === undefined) return;
    if (this.shared !== undefined) {
      // Hosts held in the shared database go back first (a moment at most), then the thread ends.
      const closed = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, CLOSE_WAIT_MS);
        const onMessage = (message: PaceThreadClosed | PaceThreadWarning) => {
          if (message.type !== 'closed') return;
          thread.off('message', onMessage);
          clearTimeout(timer);
          resolve();
        };
        thread.on('message', onMessage);
        thread.once('exit', () => resolve());
      });
      thread.postMessage({ type: 'close' } satisfies PaceThreadMessage);
      await closed;
    }
    await thread.terminate();
  }

  private start(): Worker {
    const workerData: PaceThreadData = {
      perHostLimit: this.perHostLimit,
      ...(this.shared && { shared: this.shared }),
    };
    const thread = new Worker(new URL('./pace-thread.js', import.meta.url), { workerData });
    // Run threads keep the process busy while they work; this one alone must not keep it alive.
    thread.unref();
    thread.on('error', (error) => this.failed(error));
    thread.on('message', (message: PaceThreadClosed | PaceThreadWarning) => {
      if (message.type === 'warning') this.warn(message.message);
    });
    thread.on('exit', () => {
      if (this.thread === thread) this.thread = undefined;
    });
    return thread;
  }
}
