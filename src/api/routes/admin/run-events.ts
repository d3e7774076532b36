import type { FastifyReply, FastifyRequest } from 'fastify';
import { isActiveState } from '../../../domain/index.js';
import type { ManagedRun, RunManagement } from '../../../usecases/index.js';

import type { TenantRef } from '../../../store/index.js';

/** At most this many progress events a second reach one page. */
const MIN_EVENT_GAP_MS = 500;
/** The store is read this often for changes the crawl does not report (state, another process). */
const STORE_POLL_MS = 1000;
/** A comment this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * GET …/runs/{id}/events (docs/api.md, Run events): server-sent events of a run. The crawl's
 * progress reports are pushed as they come (at most two a second); the store is read once a second
 * for the changes no report carries (the run starting or ending, a crawl in another process). An
 * unknown run is a 404 answered before the stream starts. A stream opened with a console session
 * ends, without an `end` event, within a second of the session ending (signed out, revoked,
 * expired, or of a rotated admin token: docs/security.md, Operator sessions), so a stream outlives
 * no sign-out.
 */
export async function followRun(
  request: FastifyRequest,
  reply: FastifyReply,
  runs: RunManagement,
  tenant: TenantRef,
  runId: number,
  view: (run: ManagedRun) => unknown,
  stillSignedIn: () => Promise<boolean>,
): Promise<void> {
  let last = await runs.get(tenant, runId);
  reply.hijack();
  const raw = reply.raw;
  // A hijacked reply skips the hooks that add headers: the ones set so far (X-Request-ID and the
  // security headers of onRequest) are written here.
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'x-request-id': request.id,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  raw.write('retry: 3000\n\n');
  const send = (event: 'run' | 'end', data: unknown) =>
    raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

  let lastSentMs = 0;
  let delayed: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe = () => {};
  const close = () => {
    for (const timer of timers) clearInterval(timer);
    clearTimeout(delayed);
    unsubscribe();
    if (!raw.writableEnded) raw.end();
  };
  // One read and send at a time, so events leave in the order the run changed; a push asked
  // meanwhile reads again once the current one is sent.
  let pushing: Promise<void> | undefined;
  let pushAgain = false;
  const push = (): Promise<void> => {
    if (pushing !== undefined) {
      pushAgain = true;
      return pushing;
    }
    pushing = readAndSend().finally(() => {
      pushing = undefined;
      if (!pushAgain) return;
      pushAgain = false;
      void push();
    });
    return pushing;
  };
  const readAndSend = async () => {
    try {
      last = await runs.get(tenant, runId);
      // The client went (or the run ended) while the run was read.
      if (raw.writableEnded) return;
      send('run', view(last));
      lastSentMs = Date.now();
      if (!isActiveState(last.run.state)) {
        send('end', { crawl_execution_status_dtype_id: last.run.state });
        close();
      }
    } catch (error) {
      request.log.warn({ err: error, run_id: runId }, 'run events stopped');
      close();
    }
  };
  request.raw.on('close', close);
  send('run', view(last));
  if (!isActiveState(last.run.state)) {
    send('end', { crawl_execution_status_dtype_id: last.run.state });
    close();
    return;
  }
  // push() reports its own failures and ends the stream, so nothing waits on it.
  const stopWatching = await runs.watch(tenant, runId, () => {
    const waitMs = MIN_EVENT_GAP_MS - (Date.now() - lastSentMs);
    if (waitMs <= 0) void push();
    else
      delayed ??= setTimeout(() => {
        delayed = undefined;
        void push();
      }, waitMs);
  });
  // The client may have gone while the run was looked up.
  if (raw.writableEnded) return stopWatching();
  unsubscribe = stopWatching;
  const pollStore = async () => {
    if (!(await stillSignedIn())) {
      close();
      return;
    }
    const fresh = (await runs.get(tenant, runId)).run;
    if (
      fresh.state !== last.run.state ||
      fresh.crawledCount !== last.run.crawledCount ||
      fresh.isCancelRequest !== last.run.isCancelRequest
    )
      await push();
  };
  timers.push(
    setInterval(() => {
      pollStore().catch((error: unknown) => {
        request.log.warn({ err: error, run_id: runId }, 'run events stopped');
        close();
      });
    }, STORE_POLL_MS),
    setInterval(() => raw.write(': keep-alive\n\n'), KEEP_ALIVE_MS),
  );
}
