/**
 * A merge reads each segment's term rows a page at a time (docs/design/search-engine.md, Segments):
 * a page of common words of a large segment is cut to about MERGE_PAGE_BYTES, so the eight pages
 * a merge holds at once stay a few MB whatever the segments' size, and every term still comes,
 * in order, once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { positionOf } from '../../src/search/engine/fields.js';
import { TermEncoder } from '../../src/search/engine/segment-codec.js';
import { compareTerms } from '../../src/search/engine/segment.js';
import {
  MERGE_PAGE_BYTES,
  StoredSegment,
  type TermRowReader,
  type TermRowWithPositions,
} from '../../src/search/engine/stored-segment.js';

/** A term's row as a segment of `documents` documents holding it on each stores it. */
function rowOf(term: string, documents: number): TermRowWithPositions {
  const blocks: Uint8Array[] = [];
  const encoder = new TermEncoder((_, bytes) => blocks.push(bytes.slice()));
  encoder.start();
  const positions = Uint32Array.of(positionOf(3, 7));
  for (let doc = 0; doc < documents; doc += 1) encoder.add(doc, positions, 0, 1);
  const encoded = encoder.end()!;
  return {
    term,
    docCount: encoded.docCount,
    postings: encoded.head.slice(),
    positions: encoded.inlineBlock?.slice() ?? null,
  };
}

describe('merge pages', () => {
  test('pages of large rows are cut to about MERGE_PAGE_BYTES, every term read once in order', () => {
    // 200 rare words, then 3,000 words on each of 20,000 documents, then 200 rare words again.
    const terms = [
      ...Array.from({ length: 200 }, (_, n) => ({ term: `a${n}`, documents: 1 })),
      ...Array.from({ length: 3000 }, (_, n) => ({
        term: `m${String(n).padStart(4, '0')}`,
        documents: 20_000,
      })),
      ...Array.from({ length: 200 }, (_, n) => ({ term: `z${n}`, documents: 1 })),
    ].sort((a, b) => compareTerms(a.term, b.term));
    const common = rowOf('m', 20_000);
    const rare = rowOf('a', 1);
    const pageBytes: number[] = [];
    const rowsFrom = (from: string, limit: number) =>
      terms
        .filter(({ term }) => compareTerms(term, from) >= 0)
        .slice(0, limit)
        .map(({ term, documents }) => ({ ...(documents > 1 ? common : rare), term }));
    const sizeOf = (row: TermRowWithPositions) => row.postings.byteLength + (row.positions?.byteLength ?? 0);
    const reader: Partial<TermRowReader> = {
      termRowSizes: (_, from, limit) => rowsFrom(from, limit).map(sizeOf),
      termRowsFrom: (_, from, limit) => {
        const page = rowsFrom(from, limit);
        pageBytes.push(page.reduce((sum, row) => sum + sizeOf(row), 0));
        return page;
      },
    };
    const segment = new StoredSegment(
      1,
      new Uint32Array(20_000),
      new Uint32Array(0),
      new Uint8Array(20_000),
      reader as TermRowReader,
      2,
    );
    const read = [...segment.termsWithPostings()].map(({ term, postings }) => ({
      term,
      documents: postings.docs.length,
    }));
    assert.deepEqual(read, terms);
    // Each page is cut to MERGE_PAGE_BYTES from its rows' sizes: 3,000 rows of about 40 KB, which
    // pages of 1,024 rows would have read 40 MB at a time.
    const rowBytes = common.postings.byteLength;
    assert.ok(rowBytes > 10_000, `${rowBytes} bytes a common row`);
    const largest = Math.max(...pageBytes);
    assert.ok(largest <= MERGE_PAGE_BYTES, `a page of ${largest} bytes`);
    assert.ok(pageBytes.length >= (3000 * rowBytes) / MERGE_PAGE_BYTES, `${pageBytes.length} pages`);
  });
});
