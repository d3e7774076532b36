import type { PositionBlockCache } from './postings-cache.js';
import { decodePositionBlock, type PositionBlock, type PostingsHead } from './segment-codec.js';
import type { PositionReader, TermPostings } from './segment.js';

const NO_POSITIONS = new Uint32Array(0);

/** Where a stored term's blocks of positions come from. */
export interface PositionBlockSource {
  /** The bytes of a block; undefined once the segment is gone from the file. */
  bytesOf(block: number): Uint8Array | undefined;
  /** The bytes of up to `limit` blocks from `from` on, in order (fewer once the segment is gone). */
  bytesFrom(from: number, limit: number): Uint8Array[];
  /** Decoded blocks kept for the next search, under `key` and the block's number; none for a merge. */
  cache: PositionBlockCache | undefined;
  /** Names the term of this segment: unique in the process. */
  key: string;
}

/**
 * A term of a stored segment in postings format 2 (segment-codec.ts): its documents and counts
 * per field decoded, its positions read a block at a time when asked for.
 */
export class StoredTermPostings implements TermPostings {
  readonly docs: Uint32Array;
  readonly fieldCounts: Float32Array;
  readonly blockStarts: Uint32Array;

  constructor(
    { docs, fieldCounts, blockStarts }: PostingsHead,
    readonly source: PositionBlockSource,
  ) {
    this.docs = docs;
    this.fieldCounts = fieldCounts;
    this.blockStarts = blockStarts;
  }

  get byteLength(): number {
    return this.docs.byteLength + this.fieldCounts.byteLength + this.blockStarts.byteLength;
  }

  positionReader(keep = true): PositionReader {
    return new BlockPositionReader(this, keep);
  }

  /**
   * Block `block` decoded, from the cache or the file, kept in the cache when `keep`; undefined
   * once the segment is gone.
   */
  decodedBlock(
    block: number,
    keep: boolean,
    read: (block: number) => Uint8Array | undefined = (wanted) => this.source.bytesOf(wanted),
  ): PositionBlock | undefined {
    const { key } = this.source;
    const cache = keep ? this.source.cache : undefined;
    const cacheKey = cache === undefined ? '' : `${key}\u0000${block}`;
    const cached = cache?.get(cacheKey);
    if (cached !== undefined) return cached;
    const bytes = read(block);
    if (bytes === undefined) return undefined;
    const first = this.blockStarts[block]!;
    const end = this.blockStarts[block + 1] ?? this.docs.length;
    const decoded = decodePositionBlock(bytes, this.fieldCounts, first, end - first);
    cache?.set(cacheKey, decoded, decoded.starts.byteLength + decoded.positions.byteLength);
    return decoded;
  }
}

/**
 * Blocks read at once by a reader going through a term's blocks one after another: a phrase of
 * common words reads every block of its terms, thousands for a word on every page of a million.
 */
export const READ_AHEAD_BLOCKS = 32;

/**
 * Keeps the block it read last for the next posting: a phrase reads its documents in order, each
 * block once; proximity reads a few documents anywhere. Once it reads the block after the one it
 * read last, it reads the next READ_AHEAD_BLOCKS with one statement.
 */
class BlockPositionReader implements PositionReader {
  private block = -1;
  private first = 0;
  private decoded: PositionBlock = { starts: NO_POSITIONS, positions: NO_POSITIONS };
  /** Bytes of the blocks read ahead, from block `aheadFrom`. */
  private ahead: Uint8Array[] = [];
  private aheadFrom = 0;
  private readonly read = (block: number) => this.bytesOf(block);
  /** Where `positionsOf` finds the positions it views. */
  private readonly range = new Uint32Array(2);

  /** Set once a block was not found: the segment is gone, and no other block is looked for. */
  private gone = false;

  constructor(
    private readonly postings: StoredTermPostings,
    private readonly keep: boolean,
  ) {}

  positionsOf(posting: number): Uint32Array {
    const positions = this.locate(posting, this.range, 0);
    return positions.subarray(this.range[0]!, this.range[1]!);
  }

  locate(posting: number, range: Uint32Array, slot: number): Uint32Array {
    range[2 * slot] = 0;
    range[2 * slot + 1] = 0;
    if (this.gone) return NO_POSITIONS;
    const block = this.blockHolding(posting);
    if (block !== this.block) {
      const decoded = this.postings.decodedBlock(block, this.keep, this.read);
      // A merge removed the segment's rows after this search took its snapshot: as with a term
      // row read then, the term is found nowhere in it (Searcher.stillReadable runs it again).
      if (decoded === undefined) {
        this.gone = true;
        return NO_POSITIONS;
      }
      this.decoded = decoded;
      this.block = block;
      this.first = this.postings.blockStarts[block]!;
    }
    const local = posting - this.first;
    range[2 * slot] = this.decoded.starts[local]!;
    range[2 * slot + 1] = this.decoded.starts[local + 1]!;
    return this.decoded.positions;
  }

  /** A block's bytes: from those read ahead, else with the next ones when reading in order. */
  private bytesOf(block: number): Uint8Array | undefined {
    const local = block - this.aheadFrom;
    if (local >= 0 && local < this.ahead.length) return this.ahead[local];
    if (this.block < 0 || block !== this.block + 1) return this.postings.source.bytesOf(block);
    this.ahead = this.postings.source.bytesFrom(block, READ_AHEAD_BLOCKS);
    this.aheadFrom = block;
    return this.ahead[0];
  }

  /** The last block starting at or before `posting`. */
  private blockHolding(posting: number): number {
    const starts = this.postings.blockStarts;
    const next = starts[this.block + 1] ?? Infinity;
    if (this.block >= 0 && posting >= this.first && posting < next) return this.block;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= posting) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
