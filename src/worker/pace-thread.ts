/**
 * Entry of the thread that keeps the per-host pace of every run (docs/design/crawl.md, Crawl
 * threads). Each run thread gets a MessagePort of its own to it, so a request start waits for
 * this thread only: never for the thread answering the API, however busy searches keep it.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { HostPacer } from '../crawler/index.js';
import { connectPostgres, PgHostTenures } from '../store/postgres/index.js';
import {
  PaceBroker,
  type PaceRequest,
  type PaceThreadData,
  type PaceThreadClosed,
  type PaceThreadWarning,
  type PaceThreadMessage,
} from './pace-protocol.js';

const { perHostLimit, shared } = workerData as PaceThreadData;
const tenures =
  shared &&
  new PgHostTenures(connectPostgres(shared.databaseUrl, { maxConnections: 2 }), {
    owner: shared.owner,
    holdMs: shared.holdMs,
    // A renewal that failed is tried again; the holds lapse only if the database stays away.
    onError: (error) =>
      parentPort?.postMessage({
        type: 'warning',
        message: `a host tenure statement failed: ${error instanceof Error ? error.message : String(error)}`,
      } satisfies PaceThreadWarning),
  });
const pacer = new HostPacer(perHostLimit, undefined, tenures && { tenures });

if (parentPort === null) throw new Error('pace-thread.js runs as a worker thread only');
const parent = parentPort;
parent.on('message', (message: PaceThreadMessage) => {
  if (message.type === 'connect') serve(message.port);
  else void closeTenures().finally(() => parent.postMessage({ type: 'closed' } satisfies PaceThreadClosed));
});

/** Gives back the hosts this process holds, so another process's crawl of them goes on at once. */
async function closeTenures(): Promise<void> {
  pacer.giveBackIdleHosts();
  await tenures?.close();
}

/** Answers one run thread; when its port closes (the run ended or its thread died), gives back what it held. */
function serve(port: MessagePort): void {
  const broker = new PaceBroker(pacer, (answer) => port.postMessage(answer));
  port.on('message', (request: PaceRequest) => broker.handle(request));
  port.on('close', () => broker.close());
}
