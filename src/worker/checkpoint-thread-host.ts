import { Worker } from 'node:worker_threads';
import type {
  CheckpointAnswer,
  CheckpointRequest,
  CheckpointThreadData,
  RestoreAnswer,
  RestoreRequest,
} from './checkpoint-protocol.js';

type Answer = CheckpointAnswer | RestoreAnswer;

/**
 * A request the thread has not answered in this long is taken as hung (a query or an upload that
 * never ends): the thread is ended, its requests fail (checkpoints are read again at the next
 * interval), and the next request starts a new one. A stop never waits longer than this.
 */
const REQUEST_DEADLINE_MS = 120_000;

/** One thread and the requests it has not answered yet. */
interface CheckpointThread {
  worker: Worker;
  waiting: Map<number, (answer: Answer) => void>;
}

/**
 * The service's side of the checkpoint thread (docs/design/scale-out.md, Run leases): started with
 * the first request. A thread that died or hung fails the requests it had, and only those
 * (checkpoints are read again at the next interval, a restore lets its run go), and is started
 * again for the next one.
 */
export class CheckpointThreadHost {
  private current: CheckpointThread | undefined;
  private nextId = 1;

  /** @param env the thread's environment (the AWS SDK's variables); undefined: the process's. */
  constructor(
    private readonly data: CheckpointThreadData,
    private readonly env?: NodeJS.ProcessEnv,
  ) {}

  save(request: Omit<CheckpointRequest, 'id' | 'type'>): Promise<CheckpointAnswer> {
    return this.ask({ ...request, type: 'save' }) as Promise<CheckpointAnswer>;
  }

  restore(request: Omit<RestoreRequest, 'id' | 'type'>): Promise<RestoreAnswer> {
    return this.ask({ ...request, type: 'restore' }) as Promise<RestoreAnswer>;
  }

  /** Starts the thread ahead of the first request. */
  warm(): void {
    this.current ??= this.start();
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await current?.worker.terminate();
  }

  private ask(request: Omit<CheckpointRequest, 'id'> | Omit<RestoreRequest, 'id'>): Promise<Answer> {
    const thread = (this.current ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve) => {
      const deadline = setTimeout(() => {
        this.fail(thread, `the checkpoint thread did not answer within ${REQUEST_DEADLINE_MS / 1000} s`);
        void thread.worker.terminate();
      }, REQUEST_DEADLINE_MS);
      deadline.unref();
      thread.waiting.set(id, (answer) => {
        clearTimeout(deadline);
        resolve(answer);
      });
      thread.worker.postMessage({ ...request, id });
    });
  }

  private start(): CheckpointThread {
    const worker = new Worker(new URL('./checkpoint-thread.js', import.meta.url), {
      workerData: this.data,
      ...(this.env && { env: this.env }),
    });
    worker.unref();
    const thread: CheckpointThread = { worker, waiting: new Map() };
    worker.on('message', (answer: Answer) => {
      thread.waiting.get(answer.id)?.(answer);
      thread.waiting.delete(answer.id);
    });
    worker.on('error', (error) => this.fail(thread, `the checkpoint thread failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(thread, `the checkpoint thread exited (code ${code})`));
    return thread;
  }

  /** The thread is gone or hung: its requests fail, and the next request starts a new thread. */
  private fail(thread: CheckpointThread, message: string): void {
    if (this.current === thread) this.current = undefined;
    for (const [id, resolve] of thread.waiting) resolve({ id, outcome: 'failed', message, missing: false });
    thread.waiting.clear();
  }
}
