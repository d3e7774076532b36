/** Error codes of a connection that failed, as Node and undici report them. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * Why a run's files could not be stored, for the run's message, which the tenant reads: the
 * object store's answer (status and error name) or the error's code, never the endpoint, the
 * bucket or a local path.
 */
export function publishFailureReason(error: unknown): string {
  const { name, code, $metadata } = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    $metadata?: { httpStatusCode?: unknown };
  };
  const status = $metadata?.httpStatusCode;
  if (typeof status === 'number')
    return `the object store answered ${status}${typeof name === 'string' ? ` ${name}` : ''}`;
  if (typeof code === 'string' && NETWORK_CODES.has(code))
    return `the object store could not be reached (${code})`;
  if (typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code))
    return `reading the packaged files failed (${code})`;
  return typeof name === 'string' && name !== 'Error' ? name : 'the upload failed';
}
