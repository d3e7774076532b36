import { isMainThread, parentPort } from 'node:worker_threads';
import { TENANT_THREAD_READY } from './tenant-work-pool.js';
import { lowerThreadPriority } from './thread-priority.js';

/**
 * The nice value of a pool thread: on a busy machine the kernel gives the thread answering the
 * API its time first, and a tenant's job the time left (docs/security.md, Tenant work off the API
 * thread). Only a pool thread's module imports this one, first.
 */
const TENANT_THREAD_NICE = 10;

// On import, before the thread's module loads the rest of its imports: loading them is work too.
if (!isMainThread) lowerThreadPriority(TENANT_THREAD_NICE);

/**
 * The loop of a TenantWorkPool thread: answers each job with `handle`'s reply, or a
 * `thread_failed` failure naming what it threw; then tells the pool it is ready. Called last in
 * the thread's module, once every import is loaded: the pool counts a job's limit from here.
 */
export function serveTenantWork<Request, Reply>(handle: (request: Request) => Reply): void {
  const port = parentPort;
  if (port === null) throw new Error('serveTenantWork runs in a worker thread of a TenantWorkPool');
  port.on('message', (request: Request) => {
    let reply: Reply | { ok: false; failure: 'thread_failed'; reason: string };
    try {
      reply = handle(request);
    } catch (error) {
      reply = {
        ok: false,
        failure: 'thread_failed',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(reply);
  });
  port.postMessage(TENANT_THREAD_READY);
}
