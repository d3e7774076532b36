/*
 * The refusals of the address policy as errors, apart from guarded-connector.ts: code that only
 * recognizes them (webhook attempts, crawl failure reasons) does not load the HTTP client.
 */

/** Error code of a connection the address policy refused. */
export const ADDRESS_REFUSED = 'KUMO_ADDRESS_REFUSED';

/** A connection refused by the address policy before any byte was sent to the address. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = ADDRESS_REFUSED;
  constructor(
    /** Host name or IP literal of the URL. */
    readonly host: string,
    /** Why, e.g. `10.0.0.1 is a private address and private networks are not allowed`. */
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** The AddressRefusedError behind an error (undici may pass it on as the cause of another). */
export function addressRefusalOf(error: unknown): AddressRefusedError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof AddressRefusedError) return current;
    if ((current as { code?: unknown }).code === ADDRESS_REFUSED) {
      return new AddressRefusedError('', current.message);
    }
    current = current.cause;
  }
  return undefined;
}
