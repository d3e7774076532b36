import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago, for a server that cannot be told to pick one
 * itself (Groonga's `--port` takes a number). Another process could take it in between; on a
 * benchmark machine that is unlikely, and the server's start then fails visibly.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no free port on 127.0.0.1');
  return address.port;
}
