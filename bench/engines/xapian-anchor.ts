/**
 * The Xapian anchor: xapian-anchor.py, run by Debian's Python (whose python3-xapian bindings
 * it imports), indexes the same pages and times the same queries inside its own process; this
 * side hands it the pages and queries as files and reads its figures.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexedText } from './engines-corpus.js';
import type { EvalDocument } from '../eval/page-documents.js';
import { SYSTEM_PYTHON } from './prerequisites.js';
import type { RunResources } from './run-resources.js';

/** The script stays in the source folder: the TypeScript build copies only what it compiles. */
const SCRIPT = fileURLToPath(new URL('../../../bench/engines/xapian-anchor.py', import.meta.url));

export interface XapianFigures {
  version: string;
  documents: number;
  indexSeconds: number;
  /** Milliseconds per measured round, per query: parse_query, set_query and get_mset(0, 10). */
  total: number[][];
  /** The same rounds, get_mset(0, 10) alone. */
  msetOnly: number[][];
  /** Per sample of total: whether the thread lost its core meanwhile. */
  preempted: boolean[][];
  /** Per query: true when nothing matched. */
  empty: boolean[];
  /** Queries parsed as plain words because Xapian's syntax refused them. */
  parseFallbacks: number;
}

export async function runXapian(
  folder: string,
  documents: readonly EvalDocument[],
  queries: readonly string[],
  warmupRounds: number,
  rounds: number,
  resources: RunResources,
): Promise<XapianFigures> {
  const pagesFile = path.join(folder, 'pages.jsonl');
  const queriesFile = path.join(folder, 'queries.json');
  writeFileSync(
    pagesFile,
    documents
      .map((document) =>
        JSON.stringify({ url: document.url, title: document.title, body: indexedText(document) }),
      )
      .join('\n') + '\n',
  );
  writeFileSync(queriesFile, JSON.stringify(queries));
  const child = resources.track(
    spawn(
      SYSTEM_PYTHON,
      [SCRIPT, path.join(folder, 'db'), pagesFile, queriesFile, String(warmupRounds), String(rounds)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`${SYSTEM_PYTHON} ${path.basename(SCRIPT)} exited ${String(code)}`);
  const figures = JSON.parse(Buffer.concat(output).toString('utf8')) as XapianFigures;
  if (figures.documents !== documents.length)
    throw new Error(`xapian indexed ${figures.documents} of ${documents.length} pages`);
  return figures;
}
