import type { SegmentData } from '../../src/search/engine/segment.js';
import { VarintWriter } from '../../src/search/engine/varint.js';

/**
 * A segment as index files up to format 11 stored it: one value holding every term ('KSEG',
 * version 2), for tests that make such a file and open it with this version, which upgrades it.
 */
export function encodeFormat11Segment(data: SegmentData): Buffer {
  const termBytes = Buffer.from(data.terms.join('\u0000'), 'utf8');
  const writer = new VarintWriter(1 << 16);
  writer.plain(data.docIds);
  writer.plain(data.fieldLengths);
  writer.gaps(data.postingStart, 0, data.postingStart.length);
  for (let term = 0; term < data.terms.length; term += 1)
    writer.gaps(data.postingDocs, data.postingStart[term]!, data.postingStart[term + 1]!);
  writer.gaps(data.positionStart, 0, data.positionStart.length);
  for (let posting = 0; posting < data.postingDocs.length; posting += 1)
    writer.gaps(data.positions, data.positionStart[posting]!, data.positionStart[posting + 1]!);
  const arrays = writer.bytes();
  const header = new Uint32Array([
    0x4745534b,
    2,
    data.docIds.length,
    data.terms.length,
    data.postingDocs.length,
    data.positions.length,
    termBytes.length,
    arrays.length,
  ]);
  return Buffer.concat([Buffer.from(header.buffer), arrays, termBytes]);
}

/**
 * Takes a current index file back to format 11's segment tables, for tests that make an older
 * file from a current one: its segments' values are left as they are, since an upgrade from a
 * format before 12 indexes the documents again and never reads them.
 */
export const UNDO_FORMAT_12 =
  'DROP TRIGGER segments_drop_terms; DROP TABLE segment_terms; DROP TABLE segment_term_positions; ';
