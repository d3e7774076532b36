import { decodeTermPostings } from './segment-codec.js';
import { type PostingsCache, sharedPostingsCache } from './postings-cache.js';
import { Segment, type SegmentTerm, TERM_PAGE, type TermPostings } from './segment.js';

/** A term's row in the index file: its document count and its postings' bytes (segment-codec.ts). */
export interface TermRow {
  term: string;
  docCount: number;
  postings: Uint8Array;
}

/**
 * What a stored segment reads of the index file: the term rows of a segment, looked up one by
 * one or read in term order (`compareTerms`), `from` included, a page at a time.
 */
export interface TermRowReader {
  termRow(segmentId: number, term: string): TermRow | undefined;
  documentFrequency(segmentId: number, term: string): number;
  termsFrom(segmentId: number, from: string, limit: number): SegmentTerm[];
  termsBetween(segmentId: number, from: string, below: string, limit: number): SegmentTerm[];
  termRowsFrom(segmentId: number, from: string, limit: number): TermRow[];
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
    private readonly cache: PostingsCache = sharedPostingsCache,
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
    const postings = decodeTermPostings(row.postings, row.docCount);
    this.cache.set(key, postings);
    return postings;
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

  /** Pages of rows, so the reader never holds a statement open while a merge writes. */
  *termsWithPostings(): Iterable<{ term: string; postings: TermPostings }> {
    let from = '';
    for (;;) {
      const page = this.rows.termRowsFrom(this.id, from, TERM_PAGE);
      for (const row of page)
        yield { term: row.term, postings: decodeTermPostings(row.postings, row.docCount) };
      if (page.length < TERM_PAGE) return;
      from = after(page[page.length - 1]!.term);
    }
  }
}
