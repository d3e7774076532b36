/**
 * The child side of a bench site process (bench-site.ts, forkSite): listens on a free loopback
 * port, tells the parent the port, answers its request-count questions, takes its revisions of
 * the pages (site-revisions.ts), and exits with it.
 */
import type { Server } from 'node:http';
import { revise } from './site-revisions.js';

/** Starts `server` and talks to the parent; `served` is the number of requests answered so far. */
export function serveToParent(server: Server, served: () => number): void {
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (message: { type?: string; number?: number; share?: number }) => {
    if (message.type === 'count') process.send?.({ count: served() });
    if (message.type === 'revise') {
      revise(message.number ?? 0, message.share ?? 0);
      process.send?.({ revised: message.number });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
