import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Which network addresses the crawler may reach. Only public unicast addresses are reachable
 * unless `KUMO_ALLOW_PRIVATE_NETWORKS` opens everything (`true`) or some ranges (CIDR list):
 * loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast, unspecified and
 * reserved ranges are refused, IPv4-mapped IPv6 judged as the IPv4 address it carries.
 */
export class AddressPolicy {
  private readonly allowedRanges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(private readonly allowPrivate: boolean | readonly string[]) {
    this.allowedRanges = Array.isArray(allowPrivate)
      ? allowPrivate.map((cidr) => {
          const [address, bits] = ipaddr.parseCIDR(cidr);
          return [
            normalize(address),
            address.kind() === 'ipv6' && normalize(address).kind() === 'ipv4' ? bits - 96 : bits,
          ];
        })
      : [];
  }

  /** `KUMO_ALLOW_PRIVATE_NETWORKS=true`: every address may be reached. */
  get allowsEverything(): boolean {
    return this.allowPrivate === true;
  }

  /** Why this address may not be reached, or undefined when it may. */
  refusalOf(address: string): string | undefined {
    if (this.allowPrivate === true) return undefined;
    if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
    const parsed = normalize(ipaddr.parse(address));
    const range = parsed.range();
    if (range === 'unicast') return undefined;
    for (const [network, bits] of this.allowedRanges) {
      if (network.kind() === parsed.kind() && parsed.match(network, bits)) return undefined;
    }
    return `${address} is a ${range} address and private networks are not allowed`;
  }

  /**
   * Why a host may not be reached, judged on every address it resolves to (a name that resolves
   * to one private address among public ones is refused), or undefined when it may.
   */
  async refusalOfHost(hostname: string): Promise<string | undefined> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (this.allowPrivate === true) return undefined;
    if (ipaddr.isValid(bare)) return this.refusalOf(bare);
    let addresses: { address: string }[];
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch (error) {
      return `cannot resolve ${bare}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    }
    for (const { address } of addresses) {
      const refusal = this.refusalOf(address);
      if (refusal !== undefined) return `${bare} resolves to ${refusal}`;
    }
    return undefined;
  }
}

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is the IPv4 address it carries. */
function normalize(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}
