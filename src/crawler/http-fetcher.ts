import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { Agent, request, errors as undiciErrors } from 'undici';
import { type AddressGuard, addressRefusalOf } from '../net/index.js';
import { guardedConnector } from '../net/guarded-connector.js';
import { FetchFailure } from './fetch-errors.js';

/** One HTTP exchange, no redirects followed: the engine owns redirect, scope and auth rules. */
export interface HopRequest {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export interface HopResponse {
  status: number;
  /** Response headers, names lower-cased, repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Reads the whole body, removing content coding; fails with `too_large` past maxBytes. */
  readBody(maxBytes: number): Promise<Buffer>;
  /** Drops the body without reading it. */
  discard(): Promise<void>;
}

export interface HttpFetcher {
  fetchHop(hop: HopRequest): Promise<HopResponse>;
  close(): Promise<void>;
}

export interface UndiciFetcherOptions {
  /** Idle time before a kept-alive connection is closed. */
  keepAliveTimeoutMs?: number;
  /** Connections per origin. */
  connectionsPerOrigin?: number;
  /**
   * The address policy (AddressPolicy), applied when connecting, on the addresses actually
   * connected to: every hop (redirect targets and robots.txt included) to a refused address fails
   * with a non-retryable `address_refused` FetchFailure before any request is sent. Absent: every
   * address may be reached (tests and tools only; the service and the CLI always pass one).
   */
  addresses?: AddressGuard;
}

/** HttpFetcher over undici's connection pool. */
export function createUndiciFetcher(options: UndiciFetcherOptions = {}): HttpFetcher {
  const agent = new Agent({
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    connections: options.connectionsPerOrigin ?? 64,
    pipelining: 1,
    ...(options.addresses !== undefined && { connect: guardedConnector(options.addresses) }),
  });
  return {
    async fetchHop(hop) {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(hop.url, {
          dispatcher: agent,
          method: 'GET',
          headers: { 'accept-encoding': 'gzip, deflate, br', ...hop.headers },
          signal: hop.signal,
        });
      } catch (error) {
        throw classifyError(error, hop.signal);
      }
      const headers = flattenHeaders(response.headers);
      const body = response.body;
      return {
        status: response.statusCode,
        headers,
        async readBody(maxBytes) {
          const chunks: Buffer[] = [];
          let size = 0;
          try {
            for await (const chunk of body) {
              const buffer = chunk as Buffer;
              size += buffer.length;
              if (size > maxBytes) {
                body.on('error', ignoreError);
                body.destroy();
                throw new FetchFailure('too_large', `body larger than ${maxBytes} bytes`);
              }
              chunks.push(buffer);
            }
          } catch (error) {
            if (error instanceof FetchFailure) throw error;
            throw classifyError(error, hop.signal);
          }
          return decodeContent(Buffer.concat(chunks, size), headers['content-encoding'], maxBytes);
        },
        async discard() {
          // Redirect and refused bodies are small or unwanted: drop the connection's remainder quietly.
          body.on('error', ignoreError);
          body.destroy();
        },
      };
    },
    close: () => agent.close(),
  };
}

function ignoreError(): void {}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    // Cookies may hold commas (Expires=Wed, ...): one per line, as browsers take them.
    headers[lower] = Array.isArray(value) ? value.join(lower === 'set-cookie' ? '\n' : ', ') : value;
  }
  return headers;
}

function decodeContent(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const coding = (encoding ?? '').trim().toLowerCase();
  if (coding === '' || coding === 'identity' || body.length === 0) return body;
  // maxOutputLength stops a decompression bomb from exhausting memory.
  const limit = { maxOutputLength: maxBytes + 1 };
  let decoded: Buffer;
  try {
    if (coding === 'gzip' || coding === 'x-gzip') decoded = gunzipSync(body, limit);
    else if (coding === 'br') decoded = brotliDecompressSync(body, limit);
    else if (coding === 'deflate') {
      try {
        decoded = inflateSync(body, limit);
      } catch {
        decoded = inflateRawSync(body, limit);
      }
    } else return body;
  } catch (error) {
    if (error instanceof RangeError)
      throw new FetchFailure('too_large', `decoded body larger than ${maxBytes} bytes`);
    throw new FetchFailure('bad_response', `cannot decode ${coding} body: ${(error as Error).message}`);
  }
  if (decoded.length > maxBytes)
    throw new FetchFailure('too_large', `decoded body larger than ${maxBytes} bytes`);
  return decoded;
}

function classifyError(error: unknown, signal: AbortSignal): FetchFailure {
  if (error instanceof FetchFailure) return error;
  const refusal = addressRefusalOf(error);
  if (refusal !== undefined)
    return new FetchFailure('address_refused', `address refused: ${refusal.reason}`, { cause: error });
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    if (reason?.name === 'TimeoutError')
      return new FetchFailure('timeout', 'page timed out', { cause: error });
    return new FetchFailure('cancelled', 'fetch cancelled', { cause: error });
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new FetchFailure('timeout', (error as Error).message, { cause: error });
  }
  const code = (error as { code?: string }).code;
  const message = (error as Error).message ?? String(error);
  return new FetchFailure('network', code ? `${code}: ${message}` : message, { cause: error });
}
