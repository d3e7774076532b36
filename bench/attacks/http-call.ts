/**
 * One HTTP request of the attack bench over node:http, so that a client can bind its socket to a
 * loopback address of its own (the sign-in attack's many clients). A request that fails or times
 * out is answered as such, never thrown: the bench counts it.
 */
import http from 'node:http';

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** The local address the socket binds (127.0.0.x); default the system's choice. */
  localAddress?: string;
  /** Given up after this long (counted as `timeout`). */
  timeoutMs?: number;
}

export interface CallAnswer {
  /** The status code, or why there was none. */
  status: number | 'timeout' | 'error';
  /** The parsed body when it is JSON. */
  json: unknown;
  headers: http.IncomingHttpHeaders;
  ms: number;
}

/** Connections are not kept: each request has its own socket, as separate clients would. */
export function call(url: string, options: CallOptions = {}): Promise<CallAnswer> {
  const started = performance.now();
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Omit<CallAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    const request = http.request(
      url,
      { method: options.method ?? 'GET', headers, agent: false, localAddress: options.localAddress },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', () => settle({ status: 'error', json: undefined, headers: {} }));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          settle({ status: response.statusCode ?? 'error', json, headers: response.headers });
        });
      },
    );
    request.on('error', () => settle({ status: 'error', json: undefined, headers: {} }));
    if (options.timeoutMs !== undefined) {
      request.setTimeout(options.timeoutMs, () => {
        settle({ status: 'timeout', json: undefined, headers: {} });
        request.destroy();
      });
    }
    request.end(payload);
  });
}

/** The answer's JSON body, or an error naming the request and its status when it is not `expected`. */
export function expectStatus<T>(what: string, answer: CallAnswer, expected = 200): T {
  if (answer.status !== expected)
    throw new Error(`${what}: expected ${expected}, got ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json as T;
}

/**
 * `call`, tried again every second while the service cannot be reached (`error`: its listen
 * queue full of the connections an attack and the probes opened while it was held, so that a
 * connection attempt times out), for at most `totalMs`.
 */
export async function callUntilReached(
  url: string,
  options: CallOptions,
  totalMs: number,
): Promise<CallAnswer> {
  const deadline = performance.now() + totalMs;
  for (;;) {
    const answer = await call(url, { ...options, timeoutMs: Math.max(1, deadline - performance.now()) });
    if (answer.status !== 'error' || performance.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
