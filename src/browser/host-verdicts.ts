import type { AddressPolicy } from '../net/index.js';

/** How long a host's verdict is reused; short, so a changed DNS answer is seen soon. */
const VERDICT_TTL_MS = 30_000;

/**
 * The address policy's verdict per host name for one run's rendered pages: the same scripts,
 * styles and images are requested by page after page, and resolving each host again every time
 * would keep the resolver (and libuv's thread pool, which it shares with compression) busy.
 */
export class HostVerdicts {
  private readonly verdicts = new Map<string, { refusal: Promise<string | undefined>; until: number }>();

  constructor(private readonly addresses: AddressPolicy) {}

  /** True when no address is refused, so redirects of sub-requests need no checking. */
  get allowsEverything(): boolean {
    return this.addresses.allowsEverything;
  }

  /** Why requests to this host are refused, or undefined when they may go out. */
  refusalOf(hostname: string): Promise<string | undefined> {
    const now = Date.now();
    const known = this.verdicts.get(hostname);
    if (known !== undefined && known.until > now) return known.refusal;
    const refusal = this.addresses.refusalOfHost(hostname);
    this.verdicts.set(hostname, { refusal, until: now + VERDICT_TTL_MS });
    return refusal;
  }
}
