/**
 * One closed-loop HTTP load with autocannon: `connections` kept-alive connections, each cycling
 * through `paths` for `seconds`. Latencies are taken from each response as autocannon times it
 * (fractions of a millisecond): its own histogram keeps whole milliseconds, too coarse for
 * answers that take about one.
 */
import autocannon from 'autocannon';
import { summarize } from '../latency-stats.js';

export interface LoadFigures {
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  /** Milliseconds, over the 2xx answers. */
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Milliseconds of the server's CPU (every thread) per request, where measured. */
  serverCpuMsPerRequest?: number;
}

export async function runLoad(
  baseUrl: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
): Promise<LoadFigures> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: seconds,
        requests: paths.map((path) => ({ method: 'GET', path })),
      },
      (error: unknown, done: autocannon.Result) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
  const summary = summarize(latencies);
  return {
    connections,
    seconds: result.duration,
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / result.duration,
    p50: summary.p50,
    p99: summary.p99,
    max: summary.max,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
