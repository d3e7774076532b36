/**
 * A bounded set of URL identities a run has already discovered (remembered when a page is
 * prepared, before its commit: a prepared page goes uncommitted only when the run stops). Most
 * links of a page point to pages seen before; answering those from memory saves a hash and a
 * database insert each. The store stays the source of truth (its frontier ignores an identity it
 * holds): when the set is full it starts over, so memory stays bounded however large the crawl
 * grows.
 */
export class IdentityCache {
  private identities = new Set<string>();

  constructor(private readonly capacity = 200_000) {}

  has(identity: string): boolean {
    return this.identities.has(identity);
  }

  add(identity: string): void {
    if (this.identities.size >= this.capacity) this.identities = new Set();
    this.identities.add(identity);
  }
}
