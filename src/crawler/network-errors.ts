/**
 * What kind of network failure an error is, read from the `code`s Node and undici put on it (and
 * on its causes): never from message text, which differs between versions and platforms.
 */
export type NetworkFailureKind = 'dns' | 'connect' | 'tls' | 'network';

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA', 'ENODATA']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/**
 * `dns` (name not resolved), `tls` (handshake or certificate), `connect` (refused, reset,
 * unreachable, timed out while connecting) or `network` (anything else), by the error's codes.
 */
export function networkKindOf(codes: readonly string[]): NetworkFailureKind {
  if (codes.some((code) => DNS_CODES.has(code))) return 'dns';
  if (codes.some((code) => TLS_CODE.test(code))) return 'tls';
  if (codes.some((code) => CONNECT_CODES.has(code))) return 'connect';
  return 'network';
}

/** The first TLS code among `codes`, such as `DEPTH_ZERO_SELF_SIGNED_CERT`. */
export function tlsCodeOf(codes: readonly string[]): string | undefined {
  return codes.find((code) => TLS_CODE.test(code));
}

/** The `code`s of an error, its causes and (for a connection tried on several addresses) its parts. */
export function errorCodesOf(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const codes: string[] = [];
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') codes.push(code);
  codes.push(...errorCodesOf((error as { cause?: unknown }).cause, depth + 1));
  const parts = (error as { errors?: unknown }).errors;
  if (Array.isArray(parts))
    for (const part of parts.slice(0, 4)) codes.push(...errorCodesOf(part, depth + 1));
  return codes;
}

/**
 * The address and port a failed connection tried (Node's system errors carry them), found the
 * same way as the codes; undefined when no part of the error names one.
 */
export function socketAddressOf(error: unknown, depth = 0): { address: string; port: number } | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const { address, port } = error as { address?: unknown; port?: unknown };
  if (typeof address === 'string' && typeof port === 'number') return { address, port };
  const fromCause = socketAddressOf((error as { cause?: unknown }).cause, depth + 1);
  if (fromCause !== undefined) return fromCause;
  const parts = (error as { errors?: unknown }).errors;
  if (!Array.isArray(parts)) return undefined;
  for (const part of parts.slice(0, 4)) {
    const found = socketAddressOf(part, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
