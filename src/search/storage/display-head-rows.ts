import type Database from 'better-sqlite3';
import { lazyStatements } from './lazy-statements.js';

/** index_meta key present once every document has its display head (absent after an upgrade). */
export const DISPLAY_HEADS_COMPLETE = 'display_heads_complete';

/** A display head as stored (src/search/display-head.ts). */
export interface DisplayHeadRow {
  text: string;
  more: boolean;
  lines: Uint8Array;
}

/**
 * A display head as written, with its document's main text key (src/search/main-text-key.ts), and
 * its runs of the body when it is kept as runs (`text` '' then, src/search/display-head.ts).
 */
export interface KeyedDisplayHeadRow extends DisplayHeadRow {
  mainKey: Uint8Array | null;
  runs: { runs: Uint8Array; bodyEnd: number } | null;
}

/** What checking a stored head against the template needs (template-resplit.ts). */
export interface HeadLines {
  url: string;
  lines: Uint8Array | null;
  more: boolean;
  mainKey: Uint8Array | null;
}

/** A document that shares its main text key with another (same-text-copies.ts). */
export interface SameTextRow {
  id: number;
  segmentId: number;
  ordinal: number;
  url: string;
  doctype: string;
  /** The main text key in hexadecimal: a string costs a fraction of a Buffer a row. */
  mainKey: string;
  /** The language the page declares, '' when none (src/search/page-language.ts). */
  language: string;
  /** How many pages of its indexing pass link to the page (inbound-link-counts.ts). */
  inboundLinks: number;
}

/**
 * The documents whose main text key another shares, each with the version its head holds: the
 * shared keys, their heads, and each document's head by id, from indexes alone.
 */
export const SAME_TEXT_ROWS = `SELECT d.id, p.segment_id, p.ordinal, d.url, d.doctype,
    hex(h.main_key), d.language, p.inbound_links
  FROM same_text_keys k INDEXED BY same_text_keys_shared
    CROSS JOIN display_heads h INDEXED BY display_heads_main_key ON h.main_key = k.main_key
    CROSS JOIN documents d INDEXED BY documents_heads ON d.id = h.id AND d.content_hash = h.content_hash
    JOIN document_state p ON p.id = d.id
  WHERE k.pages > 1`;

/** A head written again takes the new version's columns, as one row. */
const REPLACING_HEAD = `ON CONFLICT (id) DO UPDATE SET content_hash = excluded.content_hash, head = excluded.head,
  more = excluded.more, lines = excluded.lines, main_key = excluded.main_key, runs = excluded.runs,
  body_end = excluded.body_end`;

/**
 * The display heads of documents (index format 9, docs/design/search-engine.md, Stored display
 * heads), by document id, each with the content hash of the version it was cut from: a head is read
 * only with the version it belongs to, so a text written without its head is never shown with
 * another's. A staged run's new versions keep theirs aside until the run is applied.
 */
export class DisplayHeadRows {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      // Upserts, never INSERT OR REPLACE: its deletes would not count keys (same-text-keys.ts).
      put: () =>
        db.prepare(
          `INSERT INTO display_heads (id, content_hash, head, more, lines, main_key, runs, body_end)
         SELECT id, content_hash, ?, ?, ?, ?, ?, ? FROM documents WHERE id = ? ${REPLACING_HEAD}`,
        ),
      stage: () =>
        db.prepare(
          `INSERT OR REPLACE INTO staged_display_heads
           (run_key, id, content_hash, head, more, lines, main_key, runs, body_end)
         SELECT run_key, id, content_hash, ?, ?, ?, ?, ?, ? FROM staged_documents WHERE run_key = ? AND id = ?`,
        ),
      publish: () =>
        db.prepare(
          `INSERT INTO display_heads (id, content_hash, head, more, lines, main_key, runs, body_end)
         SELECT h.id, h.content_hash, h.head, h.more, h.lines, h.main_key, h.runs, h.body_end
         FROM staged_display_heads h
         JOIN documents d ON d.id = h.id WHERE h.run_key = ? ${REPLACING_HEAD}`,
        ),
      dropStaged: () => db.prepare('DELETE FROM staged_display_heads WHERE run_key = ?'),
      // Heads of the versions a run replaced, when it staged them without heads (before format 9).
      dropReplaced: () =>
        db.prepare(
          `DELETE FROM display_heads WHERE id IN (SELECT id FROM staged_documents WHERE run_key = ?)
           AND content_hash != (SELECT d.content_hash FROM documents d WHERE d.id = display_heads.id)`,
        ),
      // Before the run is applied: the pages it changed, and its new pages (in its segments only).
      runDocuments: () =>
        db
          .prepare(
            `SELECT id FROM staged_documents WHERE run_key = @runKey
           UNION SELECT p.id FROM document_state p JOIN segments s ON s.id = p.segment_id
           WHERE s.staged_run = @runKey`,
          )
          .pluck(),
      headLines: () =>
        db.prepare(
          `SELECT d.url, h.lines, h.more, h.main_key AS mainKey FROM documents d
         LEFT JOIN display_heads h ON h.id = d.id AND h.content_hash = d.content_hash WHERE d.id = ?`,
        ),
      // Rows as arrays: objects of eight properties cost more than the query for 40,000 rows.
      sameText: () => db.prepare(SAME_TEXT_ROWS).raw(),
      unmarkComplete: () => db.prepare(`DELETE FROM index_meta WHERE key = '${DISPLAY_HEADS_COMPLETE}'`),
      complete: () => db.prepare(`SELECT 1 FROM index_meta WHERE key = '${DISPLAY_HEADS_COMPLETE}'`).pluck(),
      markComplete: () =>
        db.prepare(
          `INSERT OR REPLACE INTO index_meta (key, value) VALUES ('${DISPLAY_HEADS_COMPLETE}', '1')`,
        ),
      // Ids from the narrow state table, not a scan of the documents' rows and their texts.
      missing: () =>
        db
          .prepare(
            `SELECT id FROM document_state
           WHERE NOT EXISTS (SELECT 1 FROM display_heads h WHERE h.id = document_state.id) LIMIT ?`,
          )
          .pluck(),
    });
  }

  /**
   * A document's URL, the lines its head was cut by, whether the main text goes on after it, and
   * its main text key (null without a head); undefined when it went.
   */
  headLines(id: number): HeadLines | undefined {
    const row = this.statements.headLines.get(id) as
      (Omit<HeadLines, 'more'> & { more: number | null }) | undefined;
    return row && { ...row, more: row.more === 1 };
  }

  /** The documents whose main text key at least one other document's head has too. */
  sameTextRows(): SameTextRow[] {
    const rows = this.statements.sameText.all() as [
      number,
      number,
      number,
      string,
      string,
      string,
      string,
      number,
    ][];
    return rows.map(([id, segmentId, ordinal, url, doctype, mainKey, language, inboundLinks]) => ({
      id,
      segmentId,
      ordinal,
      url,
      doctype,
      mainKey,
      language,
      inboundLinks,
    }));
  }

  /** The documents a staged run stages, new and changed, while it is not applied yet. */
  runDocuments(runKey: string): number[] {
    return this.statements.runDocuments.all({ runKey }) as number[];
  }

  /** Whether every document has its head: always in a file made as format 9 or later. */
  complete(): boolean {
    return this.statements.complete.get() === 1;
  }

  markComplete(): void {
    this.statements.markComplete.run();
  }

  /** Up to `limit` documents without a head (indexed before format 9). */
  missing(limit: number): number[] {
    return this.statements.missing.all(limit) as number[];
  }

  /** The head of a document's version in `documents`, written after that version. */
  put(id: number, head: KeyedDisplayHeadRow): void {
    this.statements.put.run(...headValues(head), id);
  }

  /** The head of a staged run's new version of a document, written after that version. */
  stage(runKey: string, id: number, head: KeyedDisplayHeadRow): void {
    this.statements.stage.run(...headValues(head), runKey, id);
  }

  /**
   * Inside the transaction applying a staged run, after its texts are copied in. A version it
   * staged without a head (by a version of Kumo before format 9) loses its predecessor's, and
   * the next writes give it one (SearchIndex.fillDisplayHeads).
   */
  publish(runKey: string): void {
    this.statements.publish.run(runKey);
    if (this.statements.dropReplaced.run(runKey).changes > 0) this.statements.unmarkComplete.run();
    this.statements.dropStaged.run(runKey);
  }

  dropStaged(runKey: string): void {
    this.statements.dropStaged.run(runKey);
  }
}

/** A head's values in the order the statements that write one take them. */
function headValues(head: KeyedDisplayHeadRow): unknown[] {
  return [
    head.text,
    head.more ? 1 : 0,
    head.lines,
    head.mainKey,
    head.runs?.runs ?? null,
    head.runs?.bodyEnd ?? null,
  ];
}
