/**
 * Fetch failures grouped by what the engine does with them (retry or give up); the engine
 * branches on `kind` and `retryable`, never on message text.
 */
export type FetchFailureKind =
  | 'network'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'cancelled'
  | 'bad_response'
  /** The address policy refused the host's address (KUMO_ALLOW_PRIVATE_NETWORKS): never sent, never retried. */
  | 'address_refused';

const RETRYABLE: ReadonlySet<FetchFailureKind> = new Set(['network', 'timeout']);

export class FetchFailure extends Error {
  override name = 'FetchFailure';
  readonly retryable: boolean;
  constructor(
    readonly kind: FetchFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.retryable = RETRYABLE.has(kind);
  }
}

/** HTTP statuses retried with backoff (docs/reference/crawl-rules.md, Fetching). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
