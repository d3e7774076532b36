/**
 * What opening an index reads of every document (docs/design/search-engine.md, Segments):
 * one row of columns per segment (date and type by ordinal), written by the writer with the
 * segment, never a row per document; URLs and titles are read by id when a result shows them. A
 * file written before the columns, or a row of other documents, gets them computed and kept.
 */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { DOCTYPE_BITS } from '../../src/search/search-index-types.js';
import { decodeSegmentColumns } from '../../src/search/storage/segment-columns.js';
import { registerTemplateFunctions } from '../../src/search/storage/template-block-schema.js';
import { changeFile, fileRows } from '../support/index-file-rows.js';
import { rankedSearch } from '../support/ranked-search.js';
import { undoFormat16 } from './format-15-documents.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-segment-columns-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const page = (n: number): IndexedDocument => ({
  url: `https://docs.example/guide/page-${n}.${n % 3 === 0 ? 'pdf' : 'html'}`,
  title: `Guide page ${n}`,
  description: '',
  body: `Chapter ${n} explains tables. ${'Rows and columns fill the page. '.repeat(200)}`,
  lastModified: 1_700_000_000_000 + n,
  doctype: n % 3 === 0 ? 'pdf' : 'html',
});

/** Every live document's id, date and type as the loaded segments hold them. */
function columnsOf(index: SearchIndex): { id: number; lastModified: number; doctypeBits: number }[] {
  return index
    .searcher()
    .snapshot.segments.flatMap((loaded) =>
      [...loaded.segment.docIds].flatMap((id, ordinal) =>
        loaded.segment.isLive(ordinal)
          ? [{ id, lastModified: loaded.lastModified[ordinal]!, doctypeBits: loaded.doctypeBits[ordinal]! }]
          : [],
      ),
    )
    .sort((a, b) => a.id - b.id);
}

/** Every document's id, date and type as its row holds them. */
function rowsOf(file: string): { id: number; lastModified: number; doctypeBits: number }[] {
  return fileRows<{ id: number; last_modified: number; doctype: 'html' | 'pdf' }>(
    file,
    'SELECT id, last_modified, doctype FROM documents ORDER BY id',
  ).map((row) => ({ id: row.id, lastModified: row.last_modified, doctypeBits: DOCTYPE_BITS[row.doctype] }));
}

test('each segment keeps its columns; an open reads them, a file without them gains them', () => {
  const file = path.join(folder, 'service-1.db');
  let index = new SearchIndex(file);
  index.writer.upsert(
    Array.from({ length: 12 }, (_, n) => page(n)),
    'bundle:test',
  );
  index.writer.upsert(
    [{ ...page(4), lastModified: 1_800_000_000_000, body: 'Chapter four, rewritten.' }],
    'bundle:test',
  );
  const expected = rowsOf(file);
  assert.equal(expected.length, 12);
  assert.equal(expected.find((row) => row.id === 5)?.lastModified, 1_800_000_000_000);
  assert.deepEqual(columnsOf(index), expected);
  const ranked = rankedSearch(index, 'chapter tables', 20);
  assert.equal(ranked.hits, 11);
  // URL and title come by id for the hits shown.
  const pdf = ranked.docs.find((doc) => doc.url === 'https://docs.example/guide/page-3.pdf');
  assert.equal(pdf?.title, 'Guide page 3');
  index.close();

  // The writer kept a row for every segment, of that segment's documents.
  const segments = fileRows<{ id: number; data: Buffer }>(file, 'SELECT id, data FROM segments ORDER BY id');
  const kept = fileRows<{ segment_id: number; data: Buffer }>(
    file,
    'SELECT segment_id, data FROM segment_columns ORDER BY segment_id',
  );
  assert.deepEqual(
    kept.map((row) => row.segment_id),
    segments.map((row) => row.id),
  );

  // As a file written before the columns, and with a row of other documents: both computed again.
  changeFile(file, `DELETE FROM segment_columns WHERE segment_id = ${segments[0]!.id}`);
  changeFile(
    file,
    `UPDATE segment_columns SET data = zeroblob(length(data)) WHERE segment_id = ${segments[1]!.id}`,
  );
  index = new SearchIndex(file);
  try {
    assert.deepEqual(columnsOf(index), expected);
    assert.deepEqual(rankedSearch(index, 'chapter tables', 20), ranked);
  } finally {
    index.close();
  }
  // Both kept again: the second as before; the first without the date of the page replaced since.
  const again = fileRows<{ segment_id: number; data: Buffer }>(
    file,
    'SELECT segment_id, data FROM segment_columns ORDER BY segment_id',
  );
  assert.deepEqual(
    again.map((row) => row.segment_id),
    kept.map((row) => row.segment_id),
  );
  assert.deepEqual(again[1], kept[1]);
  assert.notDeepEqual(again[0], kept[0]);
});

test('a row is read only for the documents it was computed for', () => {
  const file = path.join(folder, 'service-2.db');
  const index = new SearchIndex(file);
  try {
    index.writer.upsert(
      Array.from({ length: 4 }, (_, n) => page(n)),
      'bundle:test',
    );
    const loaded = index.searcher().snapshot.segments[0]!;
    const data = fileRows<{ data: Buffer }>(file, 'SELECT data FROM segment_columns')[0]!.data;
    const docIds = loaded.segment.docIds;
    assert.deepEqual(decodeSegmentColumns(data, docIds), {
      lastModified: loaded.lastModified,
      doctypeBits: loaded.doctypeBits,
    });
    assert.equal(decodeSegmentColumns(data, Uint32Array.from(docIds).reverse()), undefined);
    assert.equal(decodeSegmentColumns(data, docIds.subarray(1)), undefined);
    assert.equal(decodeSegmentColumns(data.subarray(0, data.length - 1), docIds), undefined);
  } finally {
    index.close();
  }
});

test('a merged segment has the columns of the documents it took; the segments merged away take their rows', () => {
  const file = path.join(folder, 'service-3.db');
  const index = new SearchIndex(file);
  try {
    for (let batch = 0; batch < 12; batch += 1)
      index.writer.upsert(
        Array.from({ length: 3 }, (_, n) => page(batch * 3 + n)),
        'bundle:test',
      );
    index.writer.mergeWhileNeeded();
    assert.deepEqual(columnsOf(index), rowsOf(file));
  } finally {
    index.close();
  }
  const segments = fileRows<{ id: number }>(file, 'SELECT id FROM segments ORDER BY id').map((row) => row.id);
  const kept = fileRows<{ segment_id: number }>(
    file,
    'SELECT segment_id FROM segment_columns ORDER BY segment_id',
  );
  assert.ok(segments.length < 12, `segments after merging: ${segments.length}`);
  assert.deepEqual(
    kept.map((row) => row.segment_id),
    segments,
  );
});

test('the columns come from the state and heads indexes; a file of format 15 gets them when opened', () => {
  const file = path.join(folder, 'service-4.db');
  let index = new SearchIndex(file);
  index.writer.upsert(
    Array.from({ length: 6 }, (_, n) => page(n)),
    'bundle:test',
  );
  const ranked = rankedSearch(index, 'chapter tables', 20);
  const placed = index
    .searcher()
    .snapshot.segments.flatMap((loaded) =>
      [...loaded.segment.docIds].map((id, ordinal) => ({ id, segment_id: loaded.segment.id, ordinal })),
    );
  index.close();
  const statePlan = () =>
    fileRows<{ detail: string }>(
      file,
      `EXPLAIN QUERY PLAN SELECT s.ordinal, s.id, d.last_modified, d.doctype
       FROM document_state s INDEXED BY document_state_segment
       CROSS JOIN documents d INDEXED BY documents_heads ON d.id = s.id WHERE s.segment_id = 1`,
    )
      .map((row) => row.detail)
      .join('; ');
  const stateRows = () => fileRows(file, 'SELECT id, segment_id, ordinal FROM document_state ORDER BY id');
  // Neither table's rows are read: the documents' rows hold their bodies.
  assert.match(statePlan(), /COVERING INDEX document_state_segment.*COVERING INDEX documents_heads/);
  assert.deepEqual(stateRows(), placed);
  // As a file of format 15 written before the columns: the state in the documents' rows.
  const db = new Database(file);
  registerTemplateFunctions(db);
  undoFormat16(db);
  db.exec('DELETE FROM segment_columns');
  db.close();
  assert.deepEqual(
    fileRows(file, 'SELECT id, segment_id, ordinal FROM documents ORDER BY id'),
    placed.sort((a, b) => a.id - b.id),
  );
  index = new SearchIndex(file);
  try {
    assert.deepEqual(columnsOf(index), rowsOf(file));
    assert.deepEqual(rankedSearch(index, 'chapter tables', 20), ranked);
  } finally {
    index.close();
  }
  assert.deepEqual(stateRows(), placed);
  // The old columns stay in the rows, unread; inserts leave them to their defaults.
  const documentColumns = fileRows<{ name: string; dflt_value: string }>(
    file,
    "SELECT name, dflt_value FROM pragma_table_info('documents')",
  );
  assert.deepEqual(
    documentColumns.filter((column) => ['segment_id', 'ordinal', 'inbound_links'].includes(column.name)),
    [
      { name: 'segment_id', dflt_value: '-1' },
      { name: 'ordinal', dflt_value: '-1' },
      { name: 'inbound_links', dflt_value: '0' },
    ],
  );
  assert.match(statePlan(), /COVERING INDEX document_state_segment.*COVERING INDEX documents_heads/);
});
