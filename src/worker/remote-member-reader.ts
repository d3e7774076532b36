import type { MemberReader } from '../crawler/index.js';
import { idCounter } from '../util/index.js';
import type { BundlePartAnswer, BundlePartRequest } from './bundle-part-protocol.js';

/**
 * A read the service has not answered in this long gives up: the page is fetched whole rather
 * than wait on a stalled object store.
 */
const READ_TIMEOUT_MS = 30_000;

/**
 * A run thread's reader of the previous bundle kept in object storage (bundle-part-protocol.ts):
 * each member is asked of the service by message. Never rejects: no answer, a null answer, a
 * timeout or the reader's close give undefined.
 */
export class RemoteMemberReader implements MemberReader {
  private closed = false;
  private timedOut = false;
  private readonly waiting = new Map<number, (data: Uint8Array | null) => void>();

  constructor(
    private readonly send: (request: BundlePartRequest) => void,
    private readonly timeoutMs = READ_TIMEOUT_MS,
    /** Numbers the reads; one counter over a thread's runs (see RemoteBrowser). */
    private readonly nextId: () => number = idCounter(),
  ) {}

  read(offset: number, bytes: number): Promise<Buffer | undefined> {
    if (this.closed || this.timedOut) return Promise.resolve(undefined);
    const id = this.nextId();
    return new Promise<Buffer | undefined>((resolve) => {
      const timer = setTimeout(() => {
        // The service is stuck: the run's later pages are fetched whole without asking it again.
        this.timedOut = true;
        this.settle(id, null);
      }, this.timeoutMs);
      this.waiting.set(id, (data) => {
        clearTimeout(timer);
        resolve(data === null ? undefined : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      });
      this.send({ type: 'bundle-part-read', id, offset, bytes });
    });
  }

  answered(answer: BundlePartAnswer): void {
    this.settle(answer.id, answer.data);
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.waiting.keys()]) this.settle(id, null);
  }

  private settle(id: number, data: Uint8Array | null): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(data);
  }
}
