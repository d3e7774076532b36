import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KumoConfig } from '../config/config.js';
import { bundleDocuments } from '../search/bundle-documents.js';
import { ensureDataDir, searchIndexFile } from '../service/data-dir.js';
import type { IndexedDocument } from '../search/indexed-document.js';
import { SearchIndex } from '../search/search-index.js';
import { UsageError } from './usage-error.js';

export const INDEX_USAGE = `usage: kumo index --service N <crawl_objects.tar.gz>
  loads the HTML pages of a crawl bundle into the index of search service N
  (pages already indexed are replaced by URL; meta robots noindex pages are left out)
usage: kumo search --service N [--limit N] <query>
  prints the best-ranked pages of search service N for the query`;

/** Pages written per transaction: large enough to be fast, small enough to show progress. */
const BATCH = 500;

/** Parses `--service N`, shared by `kumo index` and `kumo search`. */
export function serviceIdOption(raw: string | undefined): number {
  if (raw === undefined) throw new UsageError('--service N is required');
  if (!/^[1-9]\d{0,9}$/.test(raw))
    throw new UsageError(`--service: expected a positive whole number, got "${raw}"`);
  return Number(raw);
}

/** `kumo index`: a crawl bundle into a search service's index, with progress on stderr. */
export async function indexCommand(argv: string[], config: KumoConfig): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { service: { type: 'string' } },
  });
  const serviceId = serviceIdOption(values.service);
  if (positionals.length !== 1) throw new UsageError('kumo index: give one crawl_objects.tar.gz');
  const bundle = positionals[0]!;
  if (!existsSync(bundle)) throw new UsageError(`kumo index: no such file: ${bundle}`);
  ensureDataDir(config.dataDir);
  const index = new SearchIndex(searchIndexFile(config.dataDir, serviceId));
  let batch: IndexedDocument[] = [];
  let count = 0;
  const started = Date.now();
  const flush = () => {
    index.upsert(batch);
    count += batch.length;
    batch = [];
    process.stderr.write(`indexed ${count} pages (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  };
  try {
    for await (const document of bundleDocuments(bundle)) {
      batch.push(document);
      if (batch.length >= BATCH) flush();
    }
    if (batch.length > 0 || count === 0) flush();
  } finally {
    index.close();
  }
  process.stdout.write(`search service ${serviceId}: ${count} pages indexed from ${bundle}\n`);
  return 0;
}
