/**
 * A mistake in the command line; printed as one `kumo: <message>` line without a stack trace,
 * exit code 2. `withUsage` adds the command's usage below it (a required option left out).
 */
export class UsageError extends Error {
  override name = 'UsageError';

  constructor(
    message: string,
    readonly withUsage = false,
  ) {
    super(message);
  }
}
