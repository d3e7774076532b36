import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import { Agent, request } from 'undici';
import { type AddressGuard, addressRefusalOf } from '../net/index.js';
import { guardedConnector } from '../net/guarded-connector.js';

/** Largest sub-resource body (decoded) handed to the browser; a larger one fails the request. */
const MAX_BODY_BYTES = 64 << 20;

/** Request headers that describe one connection or body framing: undici sets its own. */
const CONNECTION_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'content-length',
  'accept-encoding',
]);

const decoders: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  deflate: async (body, options) => {
    try {
      return await promisify(inflate)(body, options);
    } catch {
      return promisify(inflateRaw)(body, options);
    }
  },
};

export interface SubrequestHop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** What a sub-request got: a response to hand to the browser, or why it was not sent. */
export type SubrequestOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: 'refused'; reason: string }
  | { kind: 'failed'; timedOut: boolean; message: string };

/**
 * Fetches the sub-requests of rendered pages one hop at a time (no redirect followed) over
 * connections the address policy guards: a host name is resolved once, every address of the
 * answer is judged, and only those addresses are connected to (guarded-connector.ts), so a DNS
 * answer that changes between the host check and the connection (rebinding) cannot reach a
 * refused address. One per render session; closed with it.
 */
export class SubrequestFetcher {
  private readonly agent: Agent;

  constructor(
    guard: AddressGuard,
    private readonly timeoutMs: number,
  ) {
    this.agent = new Agent({
      connect: guardedConnector(guard),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /** Never throws: a refusal or failure is part of the outcome. */
  async fetch(hop: SubrequestHop): Promise<SubrequestOutcome> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await request(hop.url, {
        dispatcher: this.agent,
        method: hop.method as 'GET',
        headers: { ...requestHeaders(hop.headers), 'accept-encoding': 'gzip, deflate, br' },
        body: hop.body !== null && hop.body.length > 0 ? hop.body : null,
        signal,
      });
      const headers = flattenHeaders(response.headers);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > MAX_BODY_BYTES) {
          response.body.on('error', () => undefined);
          response.body.destroy();
          return { kind: 'failed', timedOut: false, message: `body larger than ${MAX_BODY_BYTES} bytes` };
        }
        chunks.push(buffer);
      }
      const body = await decode(Buffer.concat(chunks, size), headers['content-encoding']);
      return { kind: 'response', status: response.statusCode, headers, body };
    } catch (error) {
      const refusal = addressRefusalOf(error);
      if (refusal !== undefined) return { kind: 'refused', reason: refusal.reason };
      return { kind: 'failed', timedOut: signal.aborted, message: (error as Error).message ?? String(error) };
    }
  }

  /** Ends every connection; sub-requests still running fail (their pages are gone). */
  close(): Promise<void> {
    return this.agent.destroy();
  }
}

function requestHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // HTTP/2 pseudo-headers (:authority) and connection headers are not the request's own.
    if (!lower.startsWith(':') && !CONNECTION_HEADERS.has(lower)) kept[lower] = value;
  }
  return kept;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    // Cookies may hold commas (Expires=Wed, ...): one per line, as Playwright takes them.
    headers[lower] = Array.isArray(value) ? value.join(lower === 'set-cookie' ? '\n' : ', ') : value;
  }
  return headers;
}

/** The body without its content coding; an unknown coding is passed on as it came. */
async function decode(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  const coding = (encoding ?? '').trim().toLowerCase();
  const decoder = decoders[coding];
  if (decoder === undefined || body.length === 0) return body;
  // maxOutputLength stops a decompression bomb from exhausting memory.
  return decoder(body, { maxOutputLength: MAX_BODY_BYTES });
}
