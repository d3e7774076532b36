import { addressRefusalOf } from '../net/index.js';
import type { FetchFailure } from './fetch-errors.js';
import { errorCodesOf, networkKindOf, socketAddressOf, tlsCodeOf } from './network-errors.js';

/**
 * Why a URL could not be fetched, as a short phrase with its cause for people to read: meta.json
 * `fetch_error`, the run's history message, `kumo crawl`'s stderr (docs/api.md, Artifact
 * contents). Built from the failure's kind and error codes, never from message text.
 */
export function failureReasonOf(failure: FetchFailure, url: URL, timeoutMs: number): string {
  switch (failure.kind) {
    case 'network':
      return networkReasonOf(failure.cause, url);
    case 'address_refused': {
      const refusal = addressRefusalOf(failure.cause)?.reason ?? failure.message;
      return `address refused: ${refusal} (KUMO_ALLOW_PRIVATE_NETWORKS)`;
    }
    case 'timeout': {
      const codes = errorCodesOf(failure.cause);
      if (codes.includes('UND_ERR_HEADERS_TIMEOUT')) return 'timed out waiting for the response headers';
      if (codes.includes('UND_ERR_BODY_TIMEOUT')) return 'timed out reading the response body';
      return `timed out after ${formatSeconds(timeoutMs)} s`;
    }
    case 'cancelled':
      return 'cancelled';
    // The crawler's own failures carry a message it wrote for this purpose.
    case 'too_large':
    case 'too_many_redirects':
    case 'bad_response':
      return failure.message;
  }
}

function networkReasonOf(cause: unknown, url: URL): string {
  const codes = errorCodesOf(cause);
  const where = (): string => {
    const socket = socketAddressOf(cause);
    if (socket !== undefined)
      return socket.address.includes(':')
        ? `[${socket.address}]:${socket.port}`
        : `${socket.address}:${socket.port}`;
    return `${url.hostname}:${url.port !== '' ? url.port : url.protocol === 'https:' ? 443 : 80}`;
  };
  switch (networkKindOf(codes)) {
    case 'dns':
      return `DNS lookup failed for ${url.hostname}`;
    case 'tls':
      return `TLS error: ${tlsCodeOf(codes) ?? 'handshake failed'}`;
    case 'connect':
      return `${CONNECT_PHRASES.find(([code]) => codes.includes(code))?.[1] ?? 'connection failed'} (${where()})`;
    case 'network':
      return codes.length > 0 ? `network error: ${codes[0]}` : 'network error';
  }
}

/** Connection failures by code, the most telling first. */
const CONNECT_PHRASES: readonly (readonly [string, string])[] = [
  ['ECONNREFUSED', 'connection refused'],
  ['EHOSTUNREACH', 'host unreachable'],
  ['EHOSTDOWN', 'host unreachable'],
  ['ENETUNREACH', 'network unreachable'],
  ['ENETDOWN', 'network unreachable'],
  ['ETIMEDOUT', 'connection timed out'],
  ['UND_ERR_CONNECT_TIMEOUT', 'connection timed out'],
  ['ECONNRESET', 'connection reset'],
  ['ECONNABORTED', 'connection closed'],
  ['EPIPE', 'connection closed'],
  ['UND_ERR_SOCKET', 'connection closed'],
  ['UND_ERR_CLOSED', 'connection closed'],
];

/** 30000 ms as `30`, 1500 ms as `1.5`. */
function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
