/**
 * A proxy in front of a local HTTP server that records each request's method, path and Range
 * header, so a test sees how the service reads the object store. It forwards the Host header as
 * the client sent it: signed requests (SigV4) still verify.
 */
import { createServer, request as forward } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { listenLocally, type LocalServer } from './local-server.js';

export interface ProxiedRequest {
  method: string;
  path: string;
  range: string | undefined;
}

export interface RecordingProxy extends LocalServer {
  requests: ProxiedRequest[];
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    requests.push({
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      range: incoming.headers.range,
    });
    const onward = forward(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        void pipeline(answer, outgoing).catch(() => outgoing.destroy());
      },
    );
    onward.on('error', () => outgoing.destroy());
    void pipeline(incoming, onward).catch(() => onward.destroy());
  });
  return Object.assign(await listenLocally(server), { requests });
}
