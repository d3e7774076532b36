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
 * The service's side of the checkpoint thread (docs/architecture.md, Run leases): started with the
 * first checkpoint, asked one request at a time per run. A thread that died fails the checkpoints
 * it had (they are read again at the next interval) and is started again for the next one.
 */
export class CheckpointThreadHost {
  private thread: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: Answer) => void>();

  /** @param env the thread's environment (the AWS SDK's variables of object storage). */
  constructor(
    private readonly data: CheckpointThreadData,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  save(request: Omit<CheckpointRequest, 'id' | 'type'>): Promise<CheckpointAnswer> {
    return this.ask({ ...request, type: 'save' }) as Promise<CheckpointAnswer>;
  }

  restore(request: Omit<RestoreRequest, 'id' | 'type'>): Promise<RestoreAnswer> {
    return this.ask({ ...request, type: 'restore' }) as Promise<RestoreAnswer>;
  }

  private ask(request: Omit<CheckpointRequest, 'id'> | Omit<RestoreRequest, 'id'>): Promise<Answer> {
    const thread = (this.thread ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      thread.postMessage({ ...request, id });
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  private start(): Worker {
    const thread = new Worker(new URL('./checkpoint-thread.js', import.meta.url), {
      workerData: this.data,
      env: this.env,
    });
    thread.unref();
    thread.on('message', (answer: Answer) => {
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
    const failAll = (message: string) => {
      if (this.thread === thread) this.thread = undefined;
      for (const [id, resolve] of this.waiting) resolve({ id, outcome: 'failed', message, missing: false });
      this.waiting.clear();
    };
    thread.on('error', (error) => failAll(`the checkpoint thread failed: ${error.message}`));
    thread.on('exit', (code) => failAll(`the checkpoint thread exited (code ${code})`));
    return thread;
  }
}
