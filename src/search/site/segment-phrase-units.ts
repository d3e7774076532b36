/**
 * The phrase units of one segment's documents (phrase-counts.ts) in a few typed arrays: a
 * document's title parts and headings, each with its template hash, whether it is of the title,
 * and the ids of the phrases suggest may offer from it. As objects (an array of units a document,
 * an Int32Array a unit) they held 1.4 KB of heap a page on the generated site and 4.3 KB on
 * rust-doc, whose pages have many headings; here a unit is 13 bytes and a phrase 4
 * (docs/design/search-engine.md, Suggest).
 */
export class SegmentPhraseUnits {
  constructor(
    /** Per ordinal: the hash of the text the units were cut from; NaN for a document not read. */
    readonly textHashes: Float64Array,
    /** Per ordinal: the document's host, as an index of the counter's hosts. */
    readonly hosts: Int32Array,
    /** Per ordinal, and one past the last: where the document's units start. */
    readonly unitStarts: Uint32Array,
    readonly unitHashes: Float64Array,
    readonly unitTitles: Uint8Array,
    /** Per unit, and one past the last: where the unit's phrase ids start. */
    readonly phraseStarts: Uint32Array,
    readonly phraseIds: Int32Array,
  ) {}

  /** Whether the document at `ordinal` was read (its row was found). */
  has(ordinal: number): boolean {
    return !Number.isNaN(this.textHashes[ordinal]!);
  }
}

/** A unit as it is added: its hash, whether it is of the title, and its phrase ids. */
export interface PhraseUnitIds {
  hash: number;
  title: boolean;
  phrases: ArrayLike<number>;
}

/** Builds a segment's units, its documents added in ordinal order. */
export class SegmentPhraseUnitsBuilder {
  private readonly textHashes: Float64Array;
  private readonly hosts: Int32Array;
  private readonly unitStarts: Uint32Array;
  private unitHashes = new Float64Array(64);
  private unitTitles = new Uint8Array(64);
  private phraseStarts = new Uint32Array(65);
  private phraseIds = new Int32Array(256);
  private units = 0;
  private phrases = 0;
  /** The next ordinal whose units start is not yet set. */
  private nextOrdinal = 0;

  constructor(private readonly docCount: number) {
    this.textHashes = new Float64Array(docCount).fill(Number.NaN);
    this.hosts = new Int32Array(docCount).fill(-1);
    this.unitStarts = new Uint32Array(docCount + 1);
  }

  /** Adds the document at `ordinal`, after every ordinal added before. */
  addDocument(ordinal: number, textHash: number, host: number, units: Iterable<PhraseUnitIds>): void {
    if (ordinal < this.nextOrdinal) throw new RangeError(`ordinal ${ordinal} added out of order`);
    this.startsUpTo(ordinal);
    this.textHashes[ordinal] = textHash;
    this.hosts[ordinal] = host;
    for (const unit of units) this.addUnit(unit.hash, unit.title, unit.phrases);
    this.unitStarts[ordinal + 1] = this.units;
    this.nextOrdinal = ordinal + 1;
  }

  /** Adds the document at `ordinal` as another segment's arrays hold it at `from`. */
  copyDocument(ordinal: number, source: SegmentPhraseUnits, from: number): void {
    const units = function* () {
      for (let unit = source.unitStarts[from]!; unit < source.unitStarts[from + 1]!; unit += 1)
        yield {
          hash: source.unitHashes[unit]!,
          title: source.unitTitles[unit] === 1,
          phrases: source.phraseIds.subarray(source.phraseStarts[unit]!, source.phraseStarts[unit + 1]!),
        };
    };
    this.addDocument(ordinal, source.textHashes[from]!, source.hosts[from]!, units());
  }

  build(): SegmentPhraseUnits {
    this.startsUpTo(this.docCount);
    return new SegmentPhraseUnits(
      this.textHashes,
      this.hosts,
      this.unitStarts,
      this.unitHashes.slice(0, this.units),
      this.unitTitles.slice(0, this.units),
      this.phraseStarts.slice(0, this.units + 1),
      this.phraseIds.slice(0, this.phrases),
    );
  }

  /** Ordinals below `ordinal` not added have no units. */
  private startsUpTo(ordinal: number): void {
    for (; this.nextOrdinal < ordinal; this.nextOrdinal += 1)
      this.unitStarts[this.nextOrdinal + 1] = this.units;
  }

  private addUnit(hash: number, title: boolean, phrases: ArrayLike<number>): void {
    if (this.units === this.unitHashes.length) {
      this.unitHashes = grown(this.unitHashes, this.units * 2);
      this.unitTitles = grown(this.unitTitles, this.units * 2);
      this.phraseStarts = grown(this.phraseStarts, this.units * 2 + 1);
    }
    if (this.phrases + phrases.length > this.phraseIds.length)
      this.phraseIds = grown(
        this.phraseIds,
        Math.max(this.phraseIds.length * 2, this.phrases + phrases.length),
      );
    this.unitHashes[this.units] = hash;
    this.unitTitles[this.units] = title ? 1 : 0;
    for (let index = 0; index < phrases.length; index += 1) this.phraseIds[this.phrases++] = phrases[index]!;
    this.units += 1;
    this.phraseStarts[this.units] = this.phrases;
  }
}

type GrowableArray = Float64Array | Uint8Array | Uint32Array | Int32Array;

function grown<T extends GrowableArray>(array: T, length: number): T {
  const larger = new (array.constructor as new (length: number) => T)(length);
  larger.set(array);
  return larger;
}
