import { createWriteStream, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../util/index.js';
import {
  type CheckpointEntry,
  type CheckpointLink,
  type CheckpointRow,
  CheckpointMissingError,
} from './run-checkpoint.js';
import type { CheckpointMarks } from './run-checkpoint-reader.js';
import { SqliteRunDataStore } from './run-data-store.js';

/** A run's checkpoints as the shared store and the piece store give them back. */
export interface CheckpointSource {
  entries(): AsyncIterable<CheckpointEntry[]>;
  rows(): AsyncIterable<CheckpointRow[]>;
  links(): AsyncIterable<CheckpointLink[]>;
  /** The piece's bytes; undefined when it is missing (then the restore fails). */
  openPiece(name: string): Promise<Readable | undefined>;
}

/**
 * Rebuilds a run's store and object spool in `files` from its checkpoints (docs/design/scale-out.md,
 * Run leases), replacing whatever the folder held: the worker that takes a run resumes exactly
 * what was checkpointed, and fetches again what was not. Answers the marks the next checkpoint
 * reads from, so what was restored is not sent again.
 */
export async function restoreRunData(
  files: { folder: string; store: string; spool: string },
  source: CheckpointSource,
): Promise<CheckpointMarks> {
  await rm(files.folder, { recursive: true, force: true });
  await mkdir(files.folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // The run store's schema, as the run's thread will open it.
  new SqliteRunDataStore(files.store).close();
  const db = new Database(files.store);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  try {
    const marks = { entrySeq: 0, marked: 0, rowId: 0, linkId: 0 };
    const insertEntry = db.prepare(
      'INSERT INTO frontier (seq, fingerprint, url, depth, referrer, state) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for await (const batch of source.entries()) {
      db.transaction(() => {
        for (const entry of batch)
          insertEntry.run(entry.seq, entry.fingerprint, entry.url, entry.depth, entry.referrer, entry.state);
      })();
      marks.entrySeq = batch.at(-1)?.seq ?? marks.entrySeq;
    }
    marks.rowId = await restoreRows(db, files.spool, source);
    const insertLink = db.prepare(
      'INSERT INTO link_rows (id, source_url, link_url, anchor_text, rel) VALUES (?, ?, ?, ?, ?)',
    );
    for await (const batch of source.links()) {
      db.transaction(() => {
        for (const link of batch)
          insertLink.run(link.id, link.sourceUrl, link.linkUrl, link.anchorText, link.rel);
      })();
      marks.linkId = batch.at(-1)?.id ?? marks.linkId;
    }
    // The counts as the run store keeps them: rows written, and entries not skipped.
    db.prepare(
      `UPDATE progress SET crawled = (SELECT count(*) FROM url_rows),
         total = (SELECT count(*) FROM frontier WHERE state <> 2) WHERE id = 1`,
    ).run();
    return marks;
  } finally {
    db.close();
  }
}

/**
 * The URL rows, their page files appended to a new spool piece by piece (each piece downloaded
 * once, when its first row comes); answers the last row id.
 */
async function restoreRows(
  db: Database.Database,
  spoolFile: string,
  source: CheckpointSource,
): Promise<number> {
  const insertRow = db.prepare(
    `INSERT INTO url_rows (id, crawl_url, last_url, ok, crawl_us, http_status, last_modified, content_type,
       content_length, object_offset, object_bytes, fetch_error, depth)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const pieceStarts = new Map<string, number>();
  let spoolBytes = 0;
  let lastId = 0;
  for await (const batch of source.rows()) {
    for (const row of batch) {
      if (row.piece === null || pieceStarts.has(row.piece)) continue;
      const piece = await source.openPiece(row.piece);
      if (piece === undefined)
        throw new CheckpointMissingError(`the page files of checkpoint piece ${row.piece} are missing`);
      pieceStarts.set(row.piece, spoolBytes);
      await pipeline(piece, createWriteStream(spoolFile, { flags: 'a', mode: PRIVATE_FILE_MODE }));
      spoolBytes = statSync(spoolFile).size;
    }
    db.transaction(() => {
      for (const row of batch) {
        const start = row.piece === null ? undefined : pieceStarts.get(row.piece)!;
        insertRow.run(
          row.id,
          row.crawlUrl,
          row.lastUrl,
          row.ok ? 1 : 0,
          row.crawlMicros,
          row.httpStatus,
          row.lastModified,
          row.contentType,
          row.contentLength,
          start === undefined ? null : start + row.pieceOffset!,
          start === undefined ? null : row.objectBytes,
          row.fetchError,
          row.depth,
        );
      }
    })();
    lastId = batch.at(-1)?.id ?? lastId;
  }
  return lastId;
}
