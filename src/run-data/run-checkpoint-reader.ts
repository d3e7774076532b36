import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../util/index.js';
import type { UrlRowRecord } from './run-data-store.js';
import type { CheckpointEntry, CheckpointLink, CheckpointRow, RunCheckpoint } from './run-checkpoint.js';

/** How far a run's checkpoints have read its run store: the last entry, mark, row and link taken. */
export interface CheckpointMarks {
  entrySeq: number;
  marked: number;
  rowId: number;
  linkId: number;
}

export const NO_MARKS: CheckpointMarks = { entrySeq: 0, marked: 0, rowId: 0, linkId: 0 };

interface RowRecord extends UrlRowRecord {
  id: number;
  depth: number | null;
  object_offset: number | null;
  object_bytes: number | null;
}

/**
 * Reads what a running crawl's run store (run-data-store.ts) gained since `marks`, while the run's
 * thread goes on writing it: one read transaction of the WAL database, held until close(), so the
 * entries, rows and links read agree (a page's row, links and new entries are committed
 * together). They come in batches, so a checkpoint after a long outage never holds all it has to
 * send in memory. The page files of the rows read are copied from the object spool into the
 * piece file, back to back, and each row says where its own are in the piece.
 */
export class CheckpointReader {
  private readonly db: Database.Database;
  private next: CheckpointMarks;
  private pieceBytes = 0;
  private spool: number | undefined;
  private piece: number | undefined;

  constructor(
    private readonly files: { store: string; spool: string; piece: string },
    private readonly pieceName: string,
    private readonly marks: CheckpointMarks,
  ) {
    this.next = { ...marks };
    this.db = new Database(files.store, { readonly: true, fileMustExist: true });
    this.db.exec('BEGIN');
  }

  /** The checkpoint, `size` entries, rows or links at a time (entries first, then rows, then links). */
  *batches(size: number): Generator<RunCheckpoint> {
    const { marks } = this;
    const entries = this.db
      .prepare<[number, number], CheckpointEntry & { marked: number | null }>(
        `SELECT seq, fingerprint, url, depth, referrer, state, marked FROM frontier WHERE seq > ?
         UNION SELECT seq, fingerprint, url, depth, referrer, state, marked FROM frontier WHERE marked > ?
         ORDER BY seq`,
      )
      .iterate(marks.entrySeq, marks.marked);
    for (const batch of inBatches(entries, size)) {
      for (const entry of batch) {
        this.next.entrySeq = Math.max(this.next.entrySeq, entry.seq);
        this.next.marked = Math.max(this.next.marked, entry.marked ?? 0);
      }
      yield { entries: batch.map(({ marked: _marked, ...entry }) => entry), rows: [], links: [] };
    }
    const rows = this.db
      .prepare<[number], RowRecord>('SELECT * FROM url_rows WHERE id > ? ORDER BY id')
      .iterate(marks.rowId);
    for (const batch of inBatches(rows, size)) {
      this.next.rowId = batch.at(-1)!.id;
      yield { entries: [], rows: batch.map((row) => this.withPageFiles(row)), links: [] };
    }
    const links = this.db
      .prepare<[number], CheckpointLink>(
        `SELECT id, source_url AS sourceUrl, link_url AS linkUrl, anchor_text AS anchorText, rel
         FROM link_rows WHERE id > ? ORDER BY id`,
      )
      .iterate(marks.linkId);
    for (const batch of inBatches(links, size)) {
      this.next.linkId = batch.at(-1)!.id;
      yield { entries: [], rows: [], links: batch };
    }
  }

  /** Once every batch was read: the marks to read the next checkpoint from, and the piece's size. */
  result(): { marks: CheckpointMarks; pieceBytes: number } {
    return { marks: { ...this.next }, pieceBytes: this.pieceBytes };
  }

  close(): void {
    if (this.spool !== undefined) closeSync(this.spool);
    if (this.piece !== undefined) closeSync(this.piece);
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.close();
  }

  /** The row as checkpointed, its page files (if any) appended to the piece. */
  private withPageFiles(row: RowRecord): CheckpointRow {
    let pieceOffset: number | null = null;
    if (row.object_offset !== null && row.object_bytes !== null) {
      this.spool ??= openSync(this.files.spool, 'r');
      this.piece ??= openSync(this.files.piece, 'w', PRIVATE_FILE_MODE);
      const bytes = readExactly(this.spool, row.object_offset, row.object_bytes, this.files.spool);
      writeAll(this.piece, bytes);
      pieceOffset = this.pieceBytes;
      this.pieceBytes += bytes.length;
    }
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
      piece: pieceOffset === null ? null : this.pieceName,
      pieceOffset,
      objectBytes: pieceOffset === null ? null : row.object_bytes,
    };
  }
}

function* inBatches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
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
