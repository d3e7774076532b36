/**
 * A document's state beside its text (docs/design/search-engine.md, Documents and their state):
 * a merge places its documents again and a pass counts their inbound links without writing the
 * pages of their text, so the write-ahead log of a merge grows with its documents' number, not
 * with their text; a removed document takes its state with it. The log of such a transaction is
 * cut back once it is checkpointed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { ANALYZER_VERSION } from '../../src/search/analyzer.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { SearchIndexStore, WAL_SIZE_LIMIT_BYTES } from '../../src/search/storage/search-index-store.js';
import { fileRows } from '../support/index-file-rows.js';
import { rankedSearch } from '../support/ranked-search.js';
import { registerTemplateFunctions } from '../../src/search/storage/template-block-schema.js';
import { editDocumentsDefinition } from '../../src/search/storage/document-state.js';
import { undoFormat16 } from './format-15-documents.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-document-state-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const BATCH = 64;
/** About 12 KB of text a page: a page of the documents table each, as most pages of a real site fill one. */
const BODY_WORDS = 2_500;

function pageOf(n: number): IndexedDocument {
  const words = Array.from({ length: BODY_WORDS }, (_, at) => `w${(n * 7 + at * 13) % 997}`);
  return {
    url: `https://docs.example/page-${n}.html`,
    title: `Page ${n}`,
    description: '',
    body: words.join(' '),
    lastModified: 0,
    doctype: 'html',
  };
}

/**
 * The pages of the `documents` table (its text) among those `write` puts in the write-ahead log,
 * from an empty log: each frame of the log names its page (a 32-byte header, then frames of a
 * 24-byte header and the page), and SQLite's dbstat table names each page's table.
 */
function documentPagesWritten(file: string, write: () => void): number {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  write();
  const log = readFileSync(`${file}-wal`);
  const pageSize = log.readUInt32BE(8);
  const written = new Set<number>();
  for (let frame = 32; frame + 24 + pageSize <= log.length; frame += 24 + pageSize)
    written.add(log.readUInt32BE(frame));
  const documentPages = fileRows<{ pageno: number }>(
    file,
    "SELECT pageno FROM dbstat WHERE name = 'documents'",
  ).map((row) => row.pageno);
  return documentPages.filter((page) => written.has(page)).length;
}

test('a merge writes its documents placements, not their text again', () => {
  const file = path.join(folder, 'service-1.db');
  const index = new SearchIndex(file);
  try {
    const batchOf = (batch: number) => Array.from({ length: BATCH }, (_, n) => pageOf(batch * BATCH + n));
    for (let batch = 0; batch < 6; batch += 1) index.writer.upsert(batchOf(batch), 'bundle:test');
    // The seventh batch is a segment of its own; the eighth makes eight of a tier, merged.
    const plain = documentPagesWritten(file, () => index.writer.upsert(batchOf(6), 'bundle:test'));
    assert.equal(index.searcher().snapshot.segments.length, 7);
    const merging = documentPagesWritten(file, () => index.writer.upsert(batchOf(7), 'bundle:test'));
    assert.equal(index.searcher().snapshot.segments.length, 1);
    // A batch writes a page of text a new document; the merge adds none for the 512 it places.
    assert.ok(plain >= BATCH, `${plain} pages of text for a batch`);
    assert.ok(
      merging < plain + BATCH / 4,
      `${merging} pages of text for the merging batch, ${plain} for a batch`,
    );
    const placed = fileRows<{ ordinal: number }>(
      file,
      `SELECT s.ordinal FROM document_state s JOIN segments g ON g.id = s.segment_id ORDER BY s.ordinal`,
    ).map((row) => row.ordinal);
    assert.deepEqual(
      placed,
      Array.from({ length: 8 * BATCH }, (_, n) => n),
    );
  } finally {
    index.close();
  }
});

test('a file of format 15 is upgraded without writing its text again, and takes new pages after', () => {
  const file = path.join(folder, 'service-4.db');
  let index = new SearchIndex(file);
  index.writer.upsert(
    Array.from({ length: BATCH }, (_, n) => pageOf(n)),
    'bundle:test',
  );
  index.writer.upsert(
    Array.from({ length: BATCH }, (_, n) => pageOf(BATCH + n)),
    'bundle:test',
  );
  const placed = fileRows(file, 'SELECT id, segment_id, ordinal FROM document_state ORDER BY id');
  index.close();
  const db = new Database(file);
  registerTemplateFunctions(db);
  undoFormat16(db);
  db.close();
  const pages = fileRows<{ pages: number }>(
    file,
    "SELECT count(*) AS pages FROM dbstat WHERE name = 'documents'",
  )[0]!.pages;
  try {
    const written = documentPagesWritten(file, () => (index = new SearchIndex(file)));
    assert.deepEqual(fileRows(file, "SELECT value FROM index_meta WHERE key = 'schema'"), [{ value: '17' }]);
    assert.ok(written < BATCH / 4, `${written} of ${pages} pages of text written`);
    assert.deepEqual(
      fileRows(file, 'SELECT id, segment_id, ordinal FROM document_state ORDER BY id'),
      placed,
    );
    // The old columns stay, unread; a page inserted now leaves them out.
    index.writer.upsert([{ ...pageOf(500), body: 'an upgraded file still takes pages' }], 'bundle:test');
    assert.deepEqual(
      rankedSearch(index, 'upgraded').docs.map((hit) => hit.url),
      [pageOf(500).url],
    );
    const [added] = fileRows<{ segment_id: number; old: number }>(
      file,
      `SELECT s.segment_id, d.segment_id AS old FROM documents d JOIN document_state s ON s.id = d.id
       WHERE d.url = '${pageOf(500).url}'`,
    );
    assert.ok(added!.segment_id > 0);
    assert.equal(added!.old, -1);
  } finally {
    index.close();
  }
});

test('an upgrade that cannot give the old columns a default is refused, the file left as it was', () => {
  const file = path.join(folder, 'service-5.db');
  const index = new SearchIndex(file);
  index.writer.upsert([pageOf(1)], 'bundle:test');
  index.close();
  const db = new Database(file);
  registerTemplateFunctions(db);
  undoFormat16(db);
  // A definition the upgrade does not know how to give a default.
  editDocumentsDefinition(db, (definition) =>
    definition.replace('segment_id INTEGER NOT NULL', 'segment_id INT NOT NULL'),
  );
  db.close();
  assert.throws(() => new SearchIndex(file), /documents\.segment_id could not be given a default/);
  assert.deepEqual(fileRows(file, "SELECT value FROM index_meta WHERE key = 'schema'"), [{ value: '15' }]);
  assert.deepEqual(
    fileRows(file, "SELECT name FROM sqlite_master WHERE name IN ('document_state', 'same_text_keys')"),
    [],
  );
});

test('every document has its state from its insert, and loses it with the document', () => {
  const file = path.join(folder, 'service-2.db');
  const index = new SearchIndex(file);
  try {
    index.writer.upsert([pageOf(1), pageOf(2), pageOf(3)], 'bundle:test');
    index.writer.remove([pageOf(2).url]);
    const rows = fileRows<{ url: string; segment_id: number }>(
      file,
      `SELECT d.url, s.segment_id FROM document_state s LEFT JOIN documents d ON d.id = s.id ORDER BY d.url`,
    );
    assert.deepEqual(
      rows.map((row) => row.url),
      [pageOf(1).url, pageOf(3).url],
    );
    assert.ok(rows.every((row) => row.segment_id > 0));
  } finally {
    index.close();
  }
});

test('the write-ahead log is cut back to its limit once a large transaction is checkpointed', () => {
  const file = path.join(folder, 'service-3.db');
  const store = new SearchIndexStore(file, ANALYZER_VERSION);
  const db = new Database(file);
  try {
    // A transaction larger than the limit, as a large merge is: rows of 16 KB, a page each.
    const insert = db.prepare('INSERT INTO segment_columns (segment_id, data) VALUES (?, ?)');
    const rows = Math.ceil((WAL_SIZE_LIMIT_BYTES * 1.5) / 16_000);
    db.transaction(() => {
      for (let row = 1; row <= rows; row += 1) insert.run(row, Buffer.alloc(16_000, row % 251));
    })();
    assert.ok(statSync(`${file}-wal`).size > WAL_SIZE_LIMIT_BYTES * 1.4);
    db.pragma('wal_checkpoint(PASSIVE)');
    // The store's next write starts the log over, and cuts it.
    store.writeTransaction(() => store.setPublishedGeneration(1));
    assert.ok(statSync(`${file}-wal`).size <= WAL_SIZE_LIMIT_BYTES, `${statSync(`${file}-wal`).size} bytes`);
  } finally {
    db.close();
    store.close();
  }
});
