/** A local HTTP server that records every connection and request, to prove none was made. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingServer {
  host: string;
  port: number;
  /** `http://HOST:PORT` (no trailing slash). */
  origin: string;
  /** TCP connections accepted, requests or not. */
  connections: number;
  /** Request paths (with query), in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

export type Route = (path: string) => { status: number; headers?: Record<string, string>; body?: string };

const HTML = 'text/html; charset=utf-8';

/** Listens on `host` (127.0.0.1 by default); pages answer 200 HTML unless `route` says otherwise. */
export async function startRecordingServer(
  host = '127.0.0.1',
  route: Route = (path) => ({ status: 200, body: `<title>${path}</title>` }),
  port = 0,
): Promise<RecordingServer> {
  const state = { connections: 0, requests: [] as string[] };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    state.requests.push(path);
    const answer = route(path);
    res.writeHead(answer.status, { 'content-type': HTML, ...answer.headers });
    res.end(answer.body ?? '');
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    host,
    port: actualPort,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
