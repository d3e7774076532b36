import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export interface AddressPolicyOptions {
  /**
   * Resolver, `dns.lookup`-compatible (the default); injected by tests to play DNS answers such
   * as a rebinding one. The same resolver serves the host checks and the guarded connections.
   */
  lookup?: LookupFunction;
}

/**
 * What a connection needs to be checked on the address it actually reaches: a verdict per
 * address and the resolver whose answers are checked and then connected to.
 */
export interface AddressGuard {
  readonly lookup: LookupFunction;
  /** Why this address may not be reached, or undefined when it may. */
  refusalOf(address: string): string | undefined;
}

/** 2000::/3: the only IPv6 space allocated for global unicast. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052 well-known NAT64 prefix; the IPv4 address is the last 32 bits. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** RFC 3056 6to4; the IPv4 address is bits 16 to 47. */
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

/** A range that is not public unicast, and the IPv4 address it was judged on when carried in IPv6. */
interface SpecialRange {
  range: string;
  carried?: { ipv4: ipaddr.IPv4; via: string };
}

/**
 * Which network addresses Kumo may reach (page fetches, redirects, robots.txt, rendered pages'
 * sub-requests, webhooks). Only public unicast addresses are reachable unless
 * `KUMO_ALLOW_PRIVATE_NETWORKS` opens everything (`true`) or some ranges (a CIDR list, allowed
 * in addition to the public ones). Refused by default, as classified by ipaddr.js:
 *
 * - IPv4: unspecified 0/8, loopback 127/8, private 10/8, 172.16/12, 192.168/16, carrier-grade NAT
 *   100.64/10, link-local 169.254/16 (cloud metadata), multicast 224/4, broadcast, reserved
 *   (192.0.0/24, documentation ranges, 198.18/15 benchmarking, 192.88.99/24, 240/4), AS112, AMT;
 * - IPv6: unspecified, loopback, unique-local fc00::/7, link-local fe80::/10, site-local,
 *   multicast ff00::/8, documentation, benchmarking, Teredo, ORCHID, discard, local-use NAT64
 *   64:ff9b:1::/48, IPv4-translated, and anything outside 2000::/3 (IPv4-compatible ::/96 among it);
 * - IPv6 carrying an IPv4 address is judged as that IPv4 address: IPv4-mapped ::ffff:0:0/96,
 *   NAT64 64:ff9b::/96 and 6to4 2002::/16 (so a public site behind DNS64 stays reachable, while
 *   64:ff9b::a00:1 or 2002:7f00:1:: are refused like 10.0.0.1 and 127.0.0.1).
 *
 * A CIDR of the allow list matches an address itself or the IPv4 address it carries.
 */
export class AddressPolicy implements AddressGuard {
  readonly lookup: LookupFunction;
  private readonly allowedRanges: [Address, number][];

  constructor(
    private readonly allowPrivate: boolean | readonly string[],
    options: AddressPolicyOptions = {},
  ) {
    this.lookup = options.lookup ?? dnsLookup;
    this.allowedRanges = Array.isArray(allowPrivate) ? allowPrivate.map(parseRange) : [];
  }

  /** `KUMO_ALLOW_PRIVATE_NETWORKS=true`: every address may be reached. */
  get allowsEverything(): boolean {
    return this.allowPrivate === true;
  }

  /** Why this address may not be reached, or undefined when it may. */
  refusalOf(address: string): string | undefined {
    if (this.allowPrivate === true) return undefined;
    // net.isIP takes only the canonical forms a socket connects to (no octal or short IPv4).
    if (isIP(address) === 0) return `"${address}" is not an IP address`;
    const parsed = ipaddr.parse(address);
    const special = specialRangeOf(parsed);
    if (special === undefined || this.listed(parsed, special.carried?.ipv4)) return undefined;
    const what =
      special.carried === undefined
        ? `${article(special.range)} ${special.range} address`
        : `${article(special.carried.via)} ${special.carried.via} address of ` +
          `${special.carried.ipv4.toString()}, ${article(special.range)} ${special.range} address,`;
    return `${address} is ${what} and private networks are not allowed`;
  }

  /**
   * Why a host may not be reached, judged on every address it resolves to (a name that resolves
   * to one private address among public ones is refused), or undefined when it may. A check
   * before connecting only: the guarded connections (guarded-connector.ts) judge the addresses
   * actually connected to, which a rebinding DNS answer cannot slip past.
   */
  async refusalOfHost(hostname: string): Promise<string | undefined> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (this.allowPrivate === true) return undefined;
    if (isIP(bare) !== 0) return this.refusalOf(bare);
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(bare);
    } catch (error) {
      return `cannot resolve ${bare}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
    return refusalOfAddresses(this, bare, addresses);
  }

  private resolve(hostname: string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) => {
      this.lookup(hostname, { all: true }, (error, addresses, family) => {
        if (error) reject(error);
        else resolve(Array.isArray(addresses) ? addresses : [{ address: addresses, family: family ?? 0 }]);
      });
    });
  }

  private listed(address: Address, carried: ipaddr.IPv4 | undefined): boolean {
    return this.allowedRanges.some(
      ([network, bits]) =>
        (network.kind() === address.kind() && address.match(network, bits)) ||
        (carried !== undefined && network.kind() === 'ipv4' && carried.match(network, bits)),
    );
  }
}

/**
 * Why a host resolving to these addresses may not be reached: the first refused address, since
 * any one of them may be the one connected to; undefined when all may be reached.
 */
export function refusalOfAddresses(
  guard: Pick<AddressGuard, 'refusalOf'>,
  hostname: string,
  addresses: readonly LookupAddress[],
): string | undefined {
  if (addresses.length === 0) return `${hostname} resolves to no address`;
  for (const { address } of addresses) {
    const refusal = guard.refusalOf(address);
    if (refusal !== undefined) return `${hostname} resolves to a refused address: ${refusal}`;
  }
  return undefined;
}

/** A CIDR of the allow list; an IPv4-mapped IPv6 range is the IPv4 range it maps. */
function parseRange(cidr: string): [Address, number] {
  let parsed: [Address, number];
  try {
    parsed = ipaddr.parseCIDR(cidr);
  } catch {
    throw new Error(`KUMO_ALLOW_PRIVATE_NETWORKS: "${cidr}" is not a CIDR range`);
  }
  const [address, bits] = parsed;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return parsed;
}

/** The non-public range an address is in, or undefined for public unicast. */
function specialRangeOf(address: Address): SpecialRange | undefined {
  if (address.kind() === 'ipv4') {
    const range = address.range();
    return range === 'unicast' ? undefined : { range };
  }
  const v6 = address as ipaddr.IPv6;
  const carried = carriedIPv4Of(v6);
  if (carried !== undefined) {
    const inner = specialRangeOf(carried.ipv4);
    return inner === undefined ? undefined : { range: inner.range, carried };
  }
  const range = v6.range();
  if (range !== 'unicast') return { range };
  return v6.match(GLOBAL_UNICAST) ? undefined : { range: 'reserved' };
}

/** The IPv4 address an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 address carries. */
function carriedIPv4Of(v6: ipaddr.IPv6): SpecialRange['carried'] {
  const parts = v6.parts;
  if (v6.isIPv4MappedAddress()) return { ipv4: v6.toIPv4Address(), via: 'IPv4-mapped' };
  if (v6.match(NAT64)) return { ipv4: ipv4Of(parts[6], parts[7]), via: 'NAT64' };
  if (v6.match(SIX_TO_FOUR)) return { ipv4: ipv4Of(parts[1], parts[2]), via: '6to4' };
  return undefined;
}

function ipv4Of(high = 0, low = 0): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
