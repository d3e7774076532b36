/** A `dns.lookup`-compatible resolver playing scripted answers, so no test needs real DNS. */
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

export interface FakeLookup extends LookupFunction {
  /** Host names asked for, in order. */
  readonly calls: string[];
}

/**
 * Answers the n-th question with `answers[n]` (the last answer repeats); a host name not in
 * `hosts` (when given) fails with ENOTFOUND. Answers come asynchronously, as dns.lookup's do.
 */
export function fakeLookup(answers: readonly (readonly string[])[], hosts?: readonly string[]): FakeLookup {
  const calls: string[] = [];
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    const answer = answers[Math.min(calls.length, answers.length - 1)] ?? [];
    calls.push(hostname);
    setImmediate(() => {
      if (hosts !== undefined && !hosts.includes(hostname)) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        return callback(error, '');
      }
      const addresses = answer.map((address) => ({ address, family: isIP(address) }));
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (first === undefined)
        return callback(Object.assign(new Error('no address'), { code: 'ENODATA' }), '');
      return callback(null, first.address, first.family);
    });
  };
  return Object.assign(lookup as LookupFunction, { calls });
}
