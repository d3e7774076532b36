import { decodeFormat1TermPostings, decodePostingsHead, type PostingsFormat } from './segment-codec.js';
import {
  type PositionBlockCache,
  type PostingsCache,
  sharedPositionBlockCache,
  sharedPostingsCache,
} from './postings-cache.js';
import { ArrayPostings, Segment, type SegmentTerm, TERM_PAGE, type TermPostings } from './segment.js';
import { StoredTermPostings } from './stored-term-postings.js';

/**
 * A term's row in the index file: its document count and its postings' bytes (segment-codec.ts):
 * in postings format 2 the head, in format 1 everything.
 */
export interface TermRow {
  term: string;
  docCount: number;
  postings: Uint8Array;
}

/** A term's row with the positions it holds: format 2's single block, null where blocks are rows of their own. */
export interface TermRowWithPositions extends TermRow {
  positions: Uint8Array | null;
}

/**
 * What a stored segment reads of the index file: the term rows of a segment, looked up one by
 * one or read in term order (`compareTerms`), `from` included, a page at a time; and in postings
 * format 2 the blocks of a term's positions, in its row (a term of one block) or rows of their own.
 */
export interface TermRowReader {
  termRow(segmentId: number, term: string): TermRow | undefined;
  documentFrequency(segmentId: number, term: string): number;
  termsFrom(segmentId: number, from: string, limit: number): SegmentTerm[];
  termsBetween(segmentId: number, from: string, below: string, limit: number): SegmentTerm[];
  termRowsFrom(segmentId: number, from: string, limit: number): TermRowWithPositions[];
  /** The bytes of the rows `termRowsFrom` would give, in order. */
  termRowSizes(segmentId: number, from: string, limit: number): number[];
  inlinePositions(segmentId: number, term: string): Uint8Array | undefined;
  positionBlock(segmentId: number, term: string, block: number): Uint8Array | undefined;
  /** Up to `limit` blocks of a term from `from` on, in order. */
  positionBlocksFrom(segmentId: number, term: string, from: number, limit: number): Uint8Array[];
}

/** The smallest term after `term` in `compareTerms` order: no term holds U+0000. */
function after(term: string): string {
  return `${term}\u0000`;
}

/**
 * The smallest string after every term starting with `prefix`: its last character's successor in
 * its place (skipping the surrogates, which are no character); undefined past U+10FFFF.
 */
export function prefixBound(prefix: string): string | undefined {
  const characters = [...prefix];
  const last = characters.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  return characters.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

let segmentsOpened = 0;

/** About the bytes of term rows a merge reads of one segment at a time (termsWithPostings). */
export const MERGE_PAGE_BYTES = 1024 * 1024;

/**
 * A segment of the index file (docs/design/search-engine.md, Segments): its documents' arrays in
 * memory, its terms read from the file when a search asks for them, decoded postings kept in a
 * cache shared by the process. Opening one reads no term.
 */
export class StoredSegment extends Segment {
  /** Names the segment in the cache: ids are per file, and a file may be opened twice. */
  private readonly cacheKey = `${(segmentsOpened += 1)}\u0000`;

  constructor(
    id: number,
    docIds: Uint32Array,
    fieldLengths: Uint32Array,
    deleted: Uint8Array,
    private readonly rows: TermRowReader,
    private readonly postingsFormat: PostingsFormat,
    private readonly cache: PostingsCache = sharedPostingsCache,
    private readonly blockCache: PositionBlockCache = sharedPositionBlockCache,
  ) {
    super(id, docIds, fieldLengths, deleted);
  }

  documentFrequency(term: string): number {
    return this.rows.documentFrequency(this.id, term);
  }

  termPostings(term: string): TermPostings | undefined {
    const key = this.cacheKey + term;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const row = this.rows.termRow(this.id, term);
    if (row === undefined) return undefined;
    const postings = this.postingsOf(row, undefined);
    this.cache.set(key, postings, postings.byteLength);
    return postings;
  }

  /**
   * The postings of a term row. In format 2, positions are read when a search asks for them,
   * their blocks decoded kept in the shared cache; a merge (`inline`: the row's positions as read
   * with it, null for a term of several blocks) reads each block once and keeps none.
   */
  private postingsOf(row: TermRow, inline: Uint8Array | null | undefined): TermPostings {
    if (this.postingsFormat === 1)
      return new ArrayPostings(decodeFormat1TermPostings(row.postings, row.docCount));
    const head = decodePostingsHead(row.postings, row.docCount);
    const { term } = row;
    // Not `this`: a cached term must not keep a segment a merge removed in memory.
    const { rows, id } = this;
    const bytesOf =
      head.blockStarts.length > 1
        ? (block: number) => rows.positionBlock(id, term, block)
        : () => inline ?? rows.inlinePositions(id, term);
    const bytesFrom = (from: number, limit: number) => rows.positionBlocksFrom(id, term, from, limit);
    const cache = inline === undefined ? this.blockCache : undefined;
    return new StoredTermPostings(head, { bytesOf, bytesFrom, cache, key: this.cacheKey + term });
  }

  *termPages(): Iterable<readonly SegmentTerm[]> {
    let from = '';
    for (;;) {
      const page = this.rows.termsFrom(this.id, from, TERM_PAGE);
      if (page.length > 0) yield page;
      if (page.length < TERM_PAGE) return;
      from = after(page[page.length - 1]!.term);
    }
  }

  termsWithPrefix(prefix: string, limit: number): SegmentTerm[] {
    const below = prefixBound(prefix);
    if (below !== undefined) return this.rows.termsBetween(this.id, prefix, below, limit);
    const found: SegmentTerm[] = [];
    let from = prefix;
    for (;;) {
      const wanted = Math.min(TERM_PAGE, limit - found.length);
      const page = this.rows.termsFrom(this.id, from, wanted);
      for (const entry of page) {
        if (!entry.term.startsWith(prefix)) return found;
        found.push(entry);
      }
      if (page.length < wanted || found.length >= limit) return found;
      from = after(page[page.length - 1]!.term);
    }
  }

  /**
   * Pages of rows, so the reader never holds a statement open while a merge writes. A page holds
   * rows of about MERGE_PAGE_BYTES at most (one row at least), their sizes read first: a page of
   * 1,024 common words of segments of 100,000 documents is tens of MB, and a merge reads a page
   * of each of its eight segments at once.
   */
  *termsWithPostings(): Iterable<{ term: string; postings: TermPostings }> {
    let from = '';
    for (;;) {
      const sizes = this.rows.termRowSizes(this.id, from, TERM_PAGE);
      let rows = 0;
      for (let bytes = 0; rows < sizes.length; rows += 1) {
        bytes += sizes[rows]!;
        if (bytes > MERGE_PAGE_BYTES && rows > 0) break;
      }
      const page = rows === 0 ? [] : this.rows.termRowsFrom(this.id, from, rows);
      for (const row of page) yield { term: row.term, postings: this.postingsOf(row, row.positions) };
      if (page.length < rows || (sizes.length < TERM_PAGE && rows === sizes.length)) return;
      from = after(page[page.length - 1]!.term);
    }
  }
}
