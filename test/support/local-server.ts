/** Fixture servers of a test on 127.0.0.1. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  /** `http://<host>:<port>` */
  baseUrl: string;
  /** Closes the server and the connections it still holds. */
  close(): Promise<void>;
}

/** Makes `server` listen on a free port of `host` (a loopback address, 127.0.0.1 unless given). */
export async function listenLocally(server: Server, host = '127.0.0.1'): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
