/**
 * Groonga beside `kumo index` in `npm run bench:scale`: the text Kumo indexed (each page's URL,
 * title, description, headings and body, read from the `documents` table of Kumo's index file)
 * loaded by Groonga as bench:engines loads it (groonga-load.ts): once into a table whose index
 * exists already, once into a bare table indexed afterwards in one pass. The load file is
 * written a row at a time, so a million pages never sit in memory at once.
 */
import { closeSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  checkLoaded,
  createDatabase,
  groongaRow,
  INDEX_COMMAND,
  loadIntoIndexedTable,
  runGroonga,
  TABLE_COMMANDS,
} from '../engines/groonga-load.js';
import { GROONGA_TABLE } from '../engines/groonga-query.js';
import type { RunResources } from '../engines/run-resources.js';

/** Rows are written to the load file in chunks of about this many characters. */
const WRITE_CHUNK_CHARS = 1 << 20;

export interface GroongaPass {
  seconds: number;
  peakRss: number;
  /** Bytes of the database's files when the pass ended. */
  bytes: number;
}

export interface ScaleGroongaResult {
  rows: number;
  /** Bytes of the load command. */
  loadBytes: number;
  /** The load into the indexed table: one process. */
  online: GroongaPass;
  /** The load into the bare table, then the index built: two processes, times added, larger peak. */
  offline: GroongaPass;
}

export async function scaleGroonga(
  kumoIndexFile: string,
  folder: string,
  resources: RunResources,
): Promise<ScaleGroongaResult> {
  const loadFile = path.join(folder, 'load.grn');
  const { rows, bytes: loadBytes } = writeLoadFile(kumoIndexFile, loadFile);
  const check = (answers: unknown[]) => checkLoaded(answers, rows);

  const { run: onlineRun, database: online } = await loadIntoIndexedTable(folder, loadFile, rows, resources);

  const offline = path.join(folder, 'offline', 'db');
  await createDatabase(offline, TABLE_COMMANDS, resources);
  process.stderr.write('groonga: loading into the bare table, then indexing\n');
  const loadRun = await runGroonga([offline], loadFile, resources);
  check(loadRun.answers);
  const indexCommandFile = path.join(folder, 'index.grn');
  writeFileSync(indexCommandFile, `${INDEX_COMMAND}\n`);
  const indexRun = await runGroonga([offline], indexCommandFile, resources);
  return {
    rows,
    loadBytes,
    online: { seconds: onlineRun.ms / 1000, peakRss: onlineRun.peakRss, bytes: databaseBytes(online) },
    offline: {
      seconds: (loadRun.ms + indexRun.ms) / 1000,
      peakRss: Math.max(loadRun.peakRss, indexRun.peakRss),
      bytes: databaseBytes(offline),
    },
  };
}

/** Writes the `load` command of every page of Kumo's index file; returns its rows and bytes. */
function writeLoadFile(kumoIndexFile: string, loadFile: string): { rows: number; bytes: number } {
  const db = new Database(kumoIndexFile, { readonly: true, fileMustExist: true });
  const fd = openSync(loadFile, 'w');
  let bytes = 0;
  let chunk = `load --table ${GROONGA_TABLE}\n[\n`;
  const flush = () => {
    bytes += writeSync(fd, chunk);
    chunk = '';
  };
  let rows = 0;
  try {
    const pages = db
      .prepare('SELECT url, title, description, headings, body FROM documents ORDER BY id')
      .iterate() as IterableIterator<{
      url: string;
      title: string;
      description: string;
      headings: string;
      body: string;
    }>;
    for (const page of pages) {
      const text = [page.description, page.headings, page.body].filter((part) => part !== '').join('\n');
      chunk += `${rows === 0 ? '' : ',\n'}${groongaRow(page.url, page.title, text)}`;
      rows += 1;
      if (chunk.length >= WRITE_CHUNK_CHARS) flush();
    }
    chunk += '\n]\n';
    flush();
  } finally {
    closeSync(fd);
    db.close();
  }
  return { rows, bytes };
}

/** Bytes of a Groonga database: its main file and every file beside it named after it. */
function databaseBytes(database: string): number {
  const folder = path.dirname(database);
  const base = path.basename(database);
  return readdirSync(folder)
    .filter((name) => name === base || name.startsWith(`${base}.`))
    .reduce((sum, name) => sum + statSync(path.join(folder, name)).size, 0);
}
