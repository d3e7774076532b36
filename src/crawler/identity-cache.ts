/**
 * A bounded set of URL identities a run has already discovered (remembered when a page is
 * prepared, before its commit: a prepared page goes uncommitted only when the run stops). Most
 * links of a page point to pages seen before; answering those from memory saves a hash and a
 * database insert each. The store stays the source of truth (its frontier ignores an identity it
 * holds): when the set is full it starts over, so memory stays bounded however large the crawl
 * grows.
 *
 * The set keeps a 64-bit hash of each identity in typed arrays, not the strings: 4 MB for 200,000
 * identities where a Set of the strings took 34 MB per thread for URLs of 55 characters
 * (docs/design/crawl.md, Memory of a long crawl). Two identities sharing both 32-bit halves would take the second for known and
 * leave its page uncrawled; among 200,000 identities that chance is about one in 10^14 per link.
 */
export class IdentityCache {
  private readonly high: Uint32Array;
  private readonly low: Uint32Array;
  private readonly mask: number;
  private size = 0;

  constructor(private readonly capacity = 200_000) {
    // At most 40% of the slots in use, so a probe ends after a slot or two.
    let slots = 1024;
    while (slots * 0.4 < capacity) slots *= 2;
    this.high = new Uint32Array(slots);
    this.low = new Uint32Array(slots);
    this.mask = slots - 1;
  }

  has(identity: string): boolean {
    const [high, low] = hashOf(identity);
    for (let slot = low & this.mask; ; slot = (slot + 1) & this.mask) {
      if (this.high[slot] === 0 && this.low[slot] === 0) return false;
      if (this.high[slot] === high && this.low[slot] === low) return true;
    }
  }

  add(identity: string): void {
    if (this.size >= this.capacity) {
      this.high.fill(0);
      this.low.fill(0);
      this.size = 0;
    }
    const [high, low] = hashOf(identity);
    for (let slot = low & this.mask; ; slot = (slot + 1) & this.mask) {
      if (this.high[slot] === high && this.low[slot] === low) return;
      if (this.high[slot] === 0 && this.low[slot] === 0) {
        this.high[slot] = high;
        this.low[slot] = low;
        this.size += 1;
        return;
      }
    }
  }
}

/**
 * Two independent 32-bit hashes of the UTF-16 code units: FNV-1a and a multiply-xorshift of the
 * MurmurHash family, each finished with an avalanche step. Never both zero, the empty slot's mark.
 */
function hashOf(text: string): [number, number] {
  let fnv = 0x811c9dc5;
  let murmur = 0x9747b28c ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    fnv = Math.imul(fnv ^ unit, 0x01000193);
    murmur = Math.imul(murmur ^ unit, 0x5bd1e995);
    murmur ^= murmur >>> 15;
  }
  const high = avalanche(fnv) >>> 0;
  const low = avalanche(murmur) >>> 0;
  return high === 0 && low === 0 ? [0, 1] : [high, low];
}

/** MurmurHash3's finalizer: every input bit moves about half the output bits. */
function avalanche(hash: number): number {
  let mixed = hash ^ (hash >>> 16);
  mixed = Math.imul(mixed, 0x85ebca6b);
  mixed ^= mixed >>> 13;
  mixed = Math.imul(mixed, 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}
