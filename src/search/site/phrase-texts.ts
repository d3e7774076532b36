/** Slots of the table per phrase at most before it grows: lookups stay short. */
const MAX_LOAD = 0.5;

/**
 * The phrases a counter has seen (phrase-counts.ts), each with an id from 0 in the order they
 * came: their UTF-16 code units one after another in one array, and an open-addressing table of
 * ids by hash. A site of a million pages has a million title phrases: as strings, with a map of
 * their ids, they took about 200 bytes each (20 MB for the generated site's 100,039 phrases);
 * here they take their code units and 20 bytes (docs/design/search-engine.md, Suggest).
 */
export class PhraseTexts {
  private units = new Uint16Array(1024);
  private unitCount = 0;
  /** Where each phrase's units start, and where the last one ends. */
  private starts = new Uint32Array(257);
  /** Each phrase's hash, kept so that growing the table reads no phrase again. */
  private hashes = new Uint32Array(256);
  private count = 0;
  /** Ids by hash, -1 for an empty slot; its length a power of two. */
  private slots = new Int32Array(512).fill(-1);

  get size(): number {
    return this.count;
  }

  /** The id of a phrase, given one if it has none yet; `added` is told of a new one. */
  idOf(phrase: string, added?: (id: number) => void): number {
    const mask = this.slots.length - 1;
    const hash = hashOf(phrase);
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id < 0) {
        const created = this.add(phrase, hash);
        this.slots[slot] = created;
        if (this.count > this.slots.length * MAX_LOAD) this.rehash();
        added?.(created);
        return created;
      }
      if (this.hashes[id] === hash && this.equals(id, phrase)) return id;
    }
  }

  textOf(id: number): string {
    const start = this.starts[id]!;
    const end = this.starts[id + 1]!;
    let text = '';
    // In pieces: fromCharCode takes its arguments on the stack.
    for (let from = start; from < end; from += 4096)
      text += String.fromCharCode(...this.units.subarray(from, Math.min(end, from + 4096)));
    return text;
  }

  lengthOf(id: number): number {
    return this.starts[id + 1]! - this.starts[id]!;
  }

  /** The code unit at `index` of the phrase `id`. */
  charCodeAt(id: number, index: number): number {
    return this.units[this.starts[id]! + index]!;
  }

  private equals(id: number, phrase: string): boolean {
    const start = this.starts[id]!;
    if (this.starts[id + 1]! - start !== phrase.length) return false;
    for (let index = 0; index < phrase.length; index += 1)
      if (this.units[start + index] !== phrase.charCodeAt(index)) return false;
    return true;
  }

  private add(phrase: string, hash: number): number {
    if (this.unitCount + phrase.length > this.units.length) {
      const units = new Uint16Array(Math.max(this.units.length * 2, this.unitCount + phrase.length));
      units.set(this.units.subarray(0, this.unitCount));
      this.units = units;
    }
    for (let index = 0; index < phrase.length; index += 1)
      this.units[this.unitCount++] = phrase.charCodeAt(index);
    if (this.count + 2 > this.starts.length) {
      const starts = new Uint32Array(this.starts.length * 2);
      starts.set(this.starts);
      this.starts = starts;
    }
    if (this.count + 1 > this.hashes.length) {
      const hashes = new Uint32Array(this.hashes.length * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[this.count] = hash;
    this.count += 1;
    this.starts[this.count] = this.unitCount;
    return this.count - 1;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id += 1) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot]! >= 0) slot = (slot + 1) & mask;
      slots[slot] = id;
    }
    this.slots = slots;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the code units. */
function hashOf(phrase: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < phrase.length; index += 1)
    hash = Math.imul(hash ^ phrase.charCodeAt(index), FNV_PRIME);
  return hash >>> 0;
}
