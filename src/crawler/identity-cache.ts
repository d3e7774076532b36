/**
 * A bounded set of URL identities a run has already put in its frontier. Most links of a page
 * point to pages seen before; answering those from memory saves a hash and a database insert
 * each. The store stays the source of truth: when the set is full it starts over, so memory stays
 * bounded however large the crawl grows.
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
