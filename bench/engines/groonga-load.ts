/**
 * Groonga loading the benchmark's pages through its command line, the way its documentation
 * loads data: a table of pages (URL key, title, body) and a lexicon that tokenizes with
 * TokenBigram (Latin words whole, other scripts, Japanese included, by overlapping character
 * pairs) after NormalizerAuto, whose index column covers title and body with positions.
 *
 * Two loads are timed, each a fresh database and one `groonga` process from start to exit:
 * into a table whose index exists already (each record indexed as it comes, as an index kept
 * up to date is fed), and into a bare table whose index is made afterwards in one pass (the
 * faster bulk path Groonga documents as static index construction). The table and lexicon are
 * created beforehand, untimed, in both.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { indexedText } from './engines-corpus.js';
import type { EvalDocument } from '../eval/page-documents.js';
import { GROONGA_TABLE } from './groonga-query.js';
import { kilobyteField, readProcFile } from '../process-tree-rss.js';
import type { RunResources } from './run-resources.js';

/** How often a running `groonga` process's peak RSS (VmHWM) is read. */
const PEAK_SAMPLE_MS = 100;

export const TABLE_COMMANDS = [
  `table_create ${GROONGA_TABLE} TABLE_HASH_KEY ShortText`,
  `column_create ${GROONGA_TABLE} title COLUMN_SCALAR ShortText`,
  `column_create ${GROONGA_TABLE} body COLUMN_SCALAR LongText`,
  'table_create Terms TABLE_PAT_KEY ShortText --default_tokenizer TokenBigram --normalizer NormalizerAuto',
];
export const INDEX_COMMAND = `column_create Terms pages_text COLUMN_INDEX|WITH_POSITION|WITH_SECTION ${GROONGA_TABLE} title,body`;

export interface GroongaLoads {
  /** Milliseconds of the load into the indexed table. */
  onlineMs: number;
  /** Milliseconds of the load into the bare table and the index built after it. */
  offlineMs: number;
  /** The database of the second load, which the HTTP server then serves. */
  database: string;
  /** Bytes of the load command (the pages as JSON). */
  loadBytes: number;
}

/** One `load` row: a page's URL, title and the rest of its text, as Groonga's load takes it. */
export function groongaRow(url: string, title: string, body: string): string {
  return JSON.stringify({ _key: url, title, body });
}

export async function loadGroonga(
  folder: string,
  documents: readonly EvalDocument[],
  resources: RunResources,
): Promise<GroongaLoads> {
  const loadFile = path.join(folder, 'load.grn');
  const rows = documents.map((document) => groongaRow(document.url, document.title, indexedText(document)));
  const load = `load --table ${GROONGA_TABLE}\n[\n${rows.join(',\n')}\n]\n`;
  writeFileSync(loadFile, load);
  const loadAndIndexFile = path.join(folder, 'load-and-index.grn');
  writeFileSync(loadAndIndexFile, `${load}${INDEX_COMMAND}\n`);
  const check = (answers: unknown[]) => checkLoaded(answers, documents.length);

  const { run: onlineRun } = await loadIntoIndexedTable(folder, loadFile, documents.length, resources);

  const offline = path.join(folder, 'offline', 'db');
  await createDatabase(offline, TABLE_COMMANDS, resources);
  process.stderr.write('groonga: loading into the bare table, then indexing\n');
  const offlineRun = await runGroonga([offline], loadAndIndexFile, resources);
  check(offlineRun.answers);
  return {
    onlineMs: onlineRun.ms,
    offlineMs: offlineRun.ms,
    database: offline,
    loadBytes: Buffer.byteLength(load),
  };
}

/** A fresh database in `folder`/online whose index exists, and the load of `loadFile` into it, timed. */
export async function loadIntoIndexedTable(
  folder: string,
  loadFile: string,
  pages: number,
  resources: RunResources,
): Promise<{ run: { ms: number; peakRss: number }; database: string }> {
  const database = path.join(folder, 'online', 'db');
  await createDatabase(database, [...TABLE_COMMANDS, INDEX_COMMAND], resources);
  process.stderr.write(`groonga: loading ${pages} pages into the indexed table\n`);
  const run = await runGroonga([database], loadFile, resources);
  checkLoaded(run.answers, pages);
  return { run, database };
}

export async function createDatabase(
  database: string,
  commands: readonly string[],
  resources: RunResources,
): Promise<void> {
  mkdirSync(path.dirname(database), { recursive: true });
  const schema = `${database}.schema.grn`;
  writeFileSync(schema, `${commands.join('\n')}\n`);
  await runGroonga(['-n', database], schema, resources);
}

/**
 * Runs the commands of `file` in a standalone `groonga` process and times it from start to
 * exit, following its peak RSS (VmHWM) meanwhile. Groonga exits 0 even when a command fails,
 * so each answer's status is checked.
 */
export async function runGroonga(
  args: readonly string[],
  file: string,
  resources: RunResources,
): Promise<{ ms: number; answers: unknown[]; peakRss: number }> {
  const started = performance.now();
  const child = resources.track(
    spawn('groonga', ['--file', file, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let peakRss = 0;
  const readPeak = () => {
    const status = child.pid === undefined ? undefined : readProcFile(child.pid, 'status');
    if (status !== undefined) peakRss = Math.max(peakRss, kilobyteField(status, 'VmHWM'));
  };
  const sampler = setInterval(readPeak, PEAK_SAMPLE_MS);
  const output: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  // 'close', not 'exit': the answers may still be in the pipe when the process has exited.
  const [code] = (await once(child, 'close')) as [number | null];
  clearInterval(sampler);
  const ms = performance.now() - started;
  const stderr = Buffer.concat(errors).toString('utf8').trim();
  if (code !== 0) throw new Error(`groonga ${args.join(' ')} exited ${String(code)}: ${stderr}`);
  const answers = Buffer.concat(output)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
  for (const answer of answers) {
    const header = (answer as unknown[])[0] as unknown[];
    if (header[0] !== 0)
      throw new Error(`groonga (${path.basename(file)}) answered ${JSON.stringify(answer)}`);
  }
  return { ms, answers, peakRss };
}

/** The load answers `[header, records loaded]`; every page must be there. */
export function checkLoaded(answers: readonly unknown[], expected: number): void {
  const loaded = (answers[0] as [unknown, number] | undefined)?.[1];
  if (loaded !== expected) throw new Error(`groonga loaded ${String(loaded)} of ${expected} pages`);
}
