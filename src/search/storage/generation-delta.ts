import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import {
  CHANGES_TABLE,
  type IndexTable,
  SEGMENT_BODY,
  SEGMENT_BODY_TABLES,
  indexTables,
  markPublishing,
  quoteName,
  schemaDigest,
  stopRecordingChanges,
} from './generation-changes.js';
import { packRows, unpackRows } from './packed-rows.js';
import { dropSegmentFacets } from './segment-facet-rows.js';

/**
 * A generation's delta (docs/design/scale-out.md, Generations as objects): the rows a writer
 * changed since its last publication, as they stand, and the keys of the rows it removed, so that
 * a copy of the previous generation with the delta applied holds exactly the writer's rows.
 *
 * The file is a run of frames, each a 4-byte length and a compressed record: first a header with
 * the schema it applies to, then the segments whose bodies are replaced, then per table the keys
 * removed and the rows written. Frames hold about a megabyte of rows, so neither side ever holds a
 * large segment whole.
 */

type Row = unknown[];
type DeltaRecord =
  | { kind: 'header'; format: number; schema: string }
  /** Segments whose body rows are all removed before the rows that follow are written. */
  | { kind: 'segments'; ids: number[] }
  | { kind: 'gone'; table: string; keys: Row[] }
  /** The rows, packed (packed-rows.ts): `columns.length` values each. */
  | { kind: 'rows'; table: string; columns: string[]; packed: Uint8Array }
  /** Rows as format 1 wrote them, still read. */
  | { kind: 'rows'; table: string; columns: string[]; rows: Row[] };

/** 2: rows packed (packed-rows.ts); format 1 rows were structured clones. */
const DELTA_FORMAT = 2;
const READ_FORMATS = [1, DELTA_FORMAT];
/** The table of segments, whose ids a new segment may take again once one is merged away. */
const SEGMENTS_TABLE = 'segments';
/** The table of the documents, whose changes a delta counts. */
const DOCUMENTS_TABLE = 'documents';
/** The raw bytes of rows gathered before a frame is written. */
const FRAME_BYTES = 1 << 20;

export interface DeltaFigures {
  /** The delta file's bytes. */
  bytes: number;
  /** Rows written, a segment's body rows included. */
  rows: number;
  /** Rows removed one by one. */
  removed: number;
  /** Segments whose bodies were replaced or removed. */
  segments: number;
  /** Documents written or removed. */
  documents: number;
}

/**
 * Marks the recorded changes as being published and writes them to `file`, all in one
 * transaction: the rows read are those of the marked keys at one moment. Synchronous, so no other
 * statement of this connection interleaves with the reading.
 */
export function writeGenerationDelta(db: Database.Database, file: string): DeltaFigures {
  const figures: DeltaFigures = { bytes: 0, rows: 0, removed: 0, segments: 0, documents: 0 };
  const fd = openSync(file, 'w', 0o600);
  try {
    const frames = new FrameWriter(fd, figures);
    db.transaction(() => {
      markPublishing(db);
      frames.write({ kind: 'header', format: DELTA_FORMAT, schema: schemaDigest(db) });
      writeSegmentBodies(db, frames, figures);
      for (const table of indexTables(db)) {
        if (SEGMENT_BODY_TABLES.includes(table.name)) continue;
        writeTableChanges(db, table, frames, figures);
      }
    })();
  } finally {
    closeSync(fd);
  }
  return figures;
}

function writeSegmentBodies(db: Database.Database, frames: FrameWriter, figures: DeltaFigures): void {
  const ids = db
    .prepare(`SELECT k1 FROM ${CHANGES_TABLE} WHERE tbl = ? AND publishing = 1 ORDER BY k1`)
    .pluck()
    .all(SEGMENT_BODY) as number[];
  if (ids.length === 0) return;
  figures.segments = ids.length;
  frames.write({ kind: 'segments', ids });
  for (const table of SEGMENT_BODY_TABLES) {
    const rows = db.prepare(`SELECT * FROM ${quoteName(table)} WHERE segment_id = ?`).raw();
    const columns = rows.columns().map((column) => column.name);
    for (const id of ids) frames.rows(table, columns, rows.iterate(id) as IterableIterator<Row>);
  }
}

function writeTableChanges(
  db: Database.Database,
  table: IndexTable,
  frames: FrameWriter,
  figures: DeltaFigures,
): void {
  const name = quoteName(table.name);
  const keyMatch = table.key.map((column, n) => `t.${quoteName(column)} = c.k${n + 1}`).join(' AND ');
  const keyColumns = table.key.map((_, n) => `c.k${n + 1}`).join(', ');
  const marked = `c.tbl = ? AND c.publishing = 1`;
  const gone = db
    .prepare(
      `SELECT ${keyColumns} FROM ${CHANGES_TABLE} c
        WHERE ${marked} AND NOT EXISTS (SELECT 1 FROM ${name} t WHERE ${keyMatch})`,
    )
    .raw()
    .all(table.name) as Row[];
  if (gone.length > 0) {
    figures.removed += gone.length;
    frames.write({ kind: 'gone', table: table.name, keys: gone });
  }
  const rows = db
    .prepare(`SELECT t.* FROM ${CHANGES_TABLE} c JOIN ${name} t ON ${keyMatch} WHERE ${marked}`)
    .raw();
  const written = figures.rows;
  frames.rows(
    table.name,
    rows.columns().map((column) => column.name),
    rows.iterate(table.name) as IterableIterator<Row>,
  );
  if (table.name === DOCUMENTS_TABLE) figures.documents += gone.length + figures.rows - written;
}

/** Writes records as frames, gathering rows into frames of about FRAME_BYTES. */
class FrameWriter {
  constructor(
    private readonly fd: number,
    private readonly figures: DeltaFigures,
  ) {}

  write(record: DeltaRecord): void {
    const body = deflateRawSync(serialize(record), { level: constants.Z_BEST_SPEED });
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    writeSync(this.fd, length);
    writeSync(this.fd, body);
    this.figures.bytes += 4 + body.length;
  }

  rows(table: string, columns: string[], rows: Iterable<Row>): void {
    let batch: Row[] = [];
    let bytes = 0;
    for (const row of rows) {
      batch.push(row);
      bytes += rawBytes(row);
      this.figures.rows += 1;
      if (bytes < FRAME_BYTES) continue;
      this.write({ kind: 'rows', table, columns, packed: packRows(batch) });
      batch = [];
      bytes = 0;
    }
    if (batch.length > 0) this.write({ kind: 'rows', table, columns, packed: packRows(batch) });
  }
}

function rawBytes(row: Row): number {
  let bytes = 0;
  for (const value of row) {
    if (typeof value === 'string') bytes += value.length;
    else if (value instanceof Uint8Array) bytes += value.byteLength;
    else bytes += 8;
  }
  return bytes;
}

function* framesOf(file: string): Generator<DeltaRecord> {
  const fd = openSync(file, 'r');
  try {
    const length = Buffer.alloc(4);
    for (let at = 0; ;) {
      const read = readSync(fd, length, 0, 4, at);
      if (read === 0) return;
      if (read !== 4) throw new Error(`generation delta ${file}: cut short at byte ${at}`);
      const body = Buffer.alloc(length.readUInt32BE(0));
      if (readSync(fd, body, 0, body.length, at + 4) !== body.length)
        throw new Error(`generation delta ${file}: cut short at byte ${at + 4}`);
      at += 4 + body.length;
      yield deserialize(inflateRawSync(body)) as DeltaRecord;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Applies a delta to a copy of the generation it was written after, in one transaction. The
 * file's own triggers are set aside meanwhile: the delta already holds every row they changed on
 * the writer's side, and would otherwise change them twice. A delta of another schema is refused.
 */
export function applyGenerationDelta(db: Database.Database, file: string): void {
  const frames = framesOf(file);
  const header = frames.next().value as DeltaRecord | undefined;
  if (header?.kind !== 'header' || !READ_FORMATS.includes(header.format))
    throw new Error(`generation delta ${file}: not a delta of format ${READ_FORMATS.join(' or ')}`);
  if (header.schema !== schemaDigest(db))
    throw new Error(`generation delta ${file}: written for another schema than this copy's`);
  const tables = new Map(indexTables(db).map((table) => [table.name, table]));
  const tableOf = (name: string): IndexTable => {
    const table = tables.get(name);
    if (table === undefined) throw new Error(`generation delta ${file}: no table ${name} here`);
    return table;
  };
  db.transaction(() => {
    const triggers = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'`).all() as {
      name: string;
      sql: string;
    }[];
    for (const trigger of triggers) db.exec(`DROP TRIGGER ${quoteName(trigger.name)}`);
    for (const record of frames) applyRecord(db, record, tableOf);
    for (const trigger of triggers) db.exec(trigger.sql);
  })();
}

function applyRecord(
  db: Database.Database,
  record: DeltaRecord,
  tableOf: (name: string) => IndexTable,
): void {
  switch (record.kind) {
    case 'header':
      throw new Error('a generation delta has one header');
    case 'segments':
      for (const table of SEGMENT_BODY_TABLES) {
        const clear = db.prepare(`DELETE FROM ${quoteName(table)} WHERE segment_id = ?`);
        for (const id of record.ids) clear.run(id);
      }
      dropSegmentFacets(db, record.ids);
      return;
    case 'gone': {
      const table = tableOf(record.table);
      const where = table.key.map((column) => `${quoteName(column)} = ?`).join(' AND ');
      const remove = db.prepare(`DELETE FROM ${quoteName(table.name)} WHERE ${where}`);
      for (const key of record.keys) remove.run(...key);
      // The trigger that drops a segment's facets with it is set aside while a delta applies.
      if (table.name === SEGMENTS_TABLE)
        dropSegmentFacets(
          db,
          record.keys.map((key) => key[0] as number),
        );
      return;
    }
    case 'rows': {
      const table = tableOf(record.table);
      const columns = record.columns.map(quoteName).join(', ');
      const values = record.columns.map(() => '?').join(', ');
      const write = db.prepare(
        `INSERT OR REPLACE INTO ${quoteName(table.name)} (${columns}) VALUES (${values})`,
      );
      const rows =
        'rows' in record
          ? record.rows
          : unpackRows(
              Buffer.from(record.packed.buffer, record.packed.byteOffset, record.packed.byteLength),
              record.columns.length,
            );
      for (const row of rows) write.run(...row);
      return;
    }
  }
}

/** Applies a delta to the index file `file` (not open elsewhere), closing it before this returns. */
export function applyGenerationDeltaToFile(file: string, delta: string): void {
  const db = new Database(file);
  try {
    applyGenerationDelta(db, delta);
  } finally {
    db.close();
  }
}

/**
 * Ends with the file alone holding its rows: a process stopped while it had the file open may
 * have left committed transactions in SQLite's log beside it, which opening it takes in.
 */
export function settleIndexFile(file: string): void {
  new Database(file).close();
}

/** Takes the recording of changes out of a snapshot of a writer's file, as a published base holds none. */
export function withoutRecordedChanges(file: string): void {
  const db = new Database(file);
  try {
    stopRecordingChanges(db);
  } finally {
    db.close();
  }
}
