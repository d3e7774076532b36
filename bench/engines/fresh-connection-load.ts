/**
 * A closed-loop HTTP load that opens a new connection for every request, as a client of
 * Groonga's HTTP server must: it answers every request with `Connection: close`. autocannon
 * cannot drive such a server (it keeps writing on the closed connection and loses track of
 * which request an answer belongs to), so this client makes the same loop as autocannon's
 * (`connections` loops, each asking the paths in turn and the next as soon as an answer is
 * complete) on plain sockets. It is also run against Kumo, so one client measures both.
 * A request's time runs from the connect to the last byte of the answer.
 */
import net from 'node:net';
import { summarize } from '../latency-stats.js';
import type { LoadFigures } from './http-load.js';

const TIMEOUT_MS = 10_000;

class TimeoutError extends Error {}

export async function runFreshConnectionLoad(
  baseUrl: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const { hostname, port, host } = new URL(baseUrl);
  const requests = paths.map((path) =>
    Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1'),
  );
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (): Promise<void> => {
    for (let at = 0; performance.now() < deadline; at += 1) {
      const began = performance.now();
      try {
        const status = await exchange(hostname, Number(port), requests[at % requests.length]!);
        if (status >= 200 && status < 300) latencies.push(performance.now() - began);
        else non2xx += 1;
      } catch (error) {
        if (error instanceof TimeoutError) timeouts += 1;
        else errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const summary = summarize(latencies);
  const requestsDone = latencies.length + non2xx;
  return {
    connections,
    seconds: elapsed,
    requests: requestsDone,
    requestsPerSecond: requestsDone / elapsed,
    p50: summary.p50,
    p99: summary.p99,
    max: summary.max,
    non2xx,
    errors,
    timeouts,
  };
}

/**
 * One request on a new connection; resolves with the answer's status once the server has closed
 * the connection, after checking that the whole body (its Content-Length) arrived.
 */
function exchange(hostname: string, port: number, request: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: hostname, port, noDelay: true });
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new TimeoutError('no answer in time')));
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      const headerEnd = answer.indexOf('\r\n\r\n');
      const head = answer.subarray(0, headerEnd).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1];
      if (headerEnd < 0 || !Number.isInteger(status)) reject(new Error('no HTTP answer'));
      else if (length !== undefined && answer.length - headerEnd - 4 !== Number(length))
        reject(new Error('answer cut short'));
      else resolve(status);
    });
  });
}
