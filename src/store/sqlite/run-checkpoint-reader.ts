import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../../util/private-files.js';
import type { UrlRowRecord } from './run-data-store.js';
import type { CheckpointEntry, CheckpointLink, CheckpointRow, RunCheckpoint } from '../run-leases.js';

/** How far a run's checkpoints have read its run store: the last entry, mark, row and link taken. */
export interface CheckpointMarks {
  entrySeq: number;
  marked: number;
  rowId: number;
  linkId: number;
}

export const NO_MARKS: CheckpointMarks = { entrySeq: 0, marked: 0, rowId: 0, linkId: 0 };

/** A checkpoint read from a run store, with the marks to read the next one from. */
export interface ReadCheckpoint {
  checkpoint: RunCheckpoint;
  marks: CheckpointMarks;
  /** Bytes written to the piece file (0: the rows have no page files, the piece is not needed). */
  pieceBytes: number;
}

interface RowRecord extends UrlRowRecord {
  id: number;
  depth: number | null;
  object_offset: number | null;
  object_bytes: number | null;
}

/**
 * Reads what a running crawl's run store (run-data-store.ts) gained since `marks`, while the run's
 * thread goes on writing it: one read transaction of the WAL database, so the entries, rows and
 * links read agree (a page's row, links and new entries are committed together). The page files
 * of the rows read are copied from the object spool into `pieceFile`, back to back, and each row
 * says where its own are in the piece.
 */
export function readCheckpoint(
  files: { store: string; spool: string; piece: string },
  pieceName: string,
  marks: CheckpointMarks,
): ReadCheckpoint {
  const db = new Database(files.store, { readonly: true, fileMustExist: true });
  try {
    db.exec('BEGIN');
    const entries = db
      .prepare<[number, number], CheckpointEntry & { marked: number | null }>(
        `SELECT seq, fingerprint, url, depth, referrer, state, marked FROM frontier WHERE seq > ?
         UNION SELECT seq, fingerprint, url, depth, referrer, state, marked FROM frontier WHERE marked > ?
         ORDER BY seq`,
      )
      .all(marks.entrySeq, marks.marked);
    const rows = db
      .prepare<[number], RowRecord>('SELECT * FROM url_rows WHERE id > ? ORDER BY id')
      .all(marks.rowId);
    const links = db
      .prepare<[number], CheckpointLink>(
        `SELECT id, source_url AS sourceUrl, link_url AS linkUrl, anchor_text AS anchorText, rel
         FROM link_rows WHERE id > ? ORDER BY id`,
      )
      .all(marks.linkId);
    db.exec('COMMIT');
    const { checkpointRows, pieceBytes } = copyPageFiles(rows, files, pieceName);
    return {
      checkpoint: {
        entries: entries.map(({ marked: _marked, ...entry }) => entry),
        rows: checkpointRows,
        links,
      },
      marks: {
        entrySeq: entries.reduce((last, entry) => Math.max(last, entry.seq), marks.entrySeq),
        marked: entries.reduce((last, entry) => Math.max(last, entry.marked ?? 0), marks.marked),
        rowId: rows.at(-1)?.id ?? marks.rowId,
        linkId: links.at(-1)?.id ?? marks.linkId,
      },
      pieceBytes,
    };
  } finally {
    db.close();
  }
}

/** Copies the rows' page files from the spool into the piece file; the rows as checkpointed. */
function copyPageFiles(
  rows: readonly RowRecord[],
  files: { spool: string; piece: string },
  pieceName: string,
): { checkpointRows: CheckpointRow[]; pieceBytes: number } {
  const withFiles = rows.filter((row) => row.object_offset !== null && row.object_bytes !== null);
  let pieceBytes = 0;
  const pieceOffsets = new Map<number, number>();
  if (withFiles.length > 0) {
    const spool = openSync(files.spool, 'r');
    const piece = openSync(files.piece, 'w', PRIVATE_FILE_MODE);
    try {
      for (const row of withFiles) {
        const bytes = readExactly(spool, row.object_offset!, row.object_bytes!, files.spool);
        writeAll(piece, bytes);
        pieceOffsets.set(row.id, pieceBytes);
        pieceBytes += bytes.length;
      }
    } finally {
      closeSync(spool);
      closeSync(piece);
    }
  }
  const checkpointRows = rows.map((row): CheckpointRow => {
    const pieceOffset = pieceOffsets.get(row.id);
    return {
      id: row.id,
      crawlUrl: row.crawl_url,
      lastUrl: row.last_url,
      ok: row.ok === 1,
      crawlMicros: row.crawl_us,
      httpStatus: row.http_status,
      lastModified: row.last_modified,
      contentType: row.content_type,
      contentLength: row.content_length,
      fetchError: row.fetch_error,
      depth: row.depth,
      piece: pieceOffset === undefined ? null : pieceName,
      pieceOffset: pieceOffset ?? null,
      objectBytes: pieceOffset === undefined ? null : row.object_bytes,
    };
  });
  return { checkpointRows, pieceBytes };
}

function readExactly(fd: number, offset: number, length: number, file: string): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const count = readSync(fd, buffer, done, length - done, offset + done);
    if (count === 0) throw new Error(`spool ${file} ends before offset ${offset + length}`);
    done += count;
  }
  return buffer;
}

function writeAll(fd: number, buffer: Buffer): void {
  let written = 0;
  while (written < buffer.length) written += writeSync(fd, buffer, written, buffer.length - written);
}
