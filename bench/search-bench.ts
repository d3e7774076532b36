/**
 * `npm run bench:search`: builds the index of a generated corpus (BENCH_DOCS, default 50,000
 * documents of ~2 KB, English and Japanese) and reports indexing docs/s, index size, and search
 * latency percentiles over a fixed query mix, in process.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SearchIndex } from '../src/search/search-index.js';
import { corpusDocument, QUERY_MIX } from './search-corpus.js';

const DOCS = Number.parseInt(process.env.BENCH_DOCS ?? '50000', 10);
const BATCH = 500;
const ROUNDS = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-search-bench-'));
const file = path.join(folder, 'service.db');
const index = new SearchIndex(file);
try {
  process.stdout.write(`bench:search  ${DOCS} documents, ${QUERY_MIX.length} queries x ${ROUNDS} rounds\n`);
  const started = performance.now();
  for (let first = 0; first < DOCS; first += BATCH) {
    const batch = [];
    for (let i = first; i < Math.min(DOCS, first + BATCH); i += 1) batch.push(corpusDocument(i));
    index.upsert(batch);
    if ((first / BATCH) % 20 === 0) process.stderr.write(`  ${first + batch.length} documents indexed\n`);
  }
  const indexSeconds = (performance.now() - started) / 1000;
  const bytes = statSync(file).size + (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const latencies: number[] = [];
  const hitsByQuery = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const query of QUERY_MIX) {
      const t0 = performance.now();
      const result = index.search(query, 10);
      latencies.push(performance.now() - t0);
      hitsByQuery.set(query, result.hits);
    }
  }
  latencies.sort((a, b) => a - b);
  const line = (label: string, value: string) => process.stdout.write(`${label.padEnd(22)}${value}\n`);
  line('indexing', `${(DOCS / indexSeconds).toFixed(0)} docs/s (${indexSeconds.toFixed(1)} s)`);
  line('index size', `${(bytes / 1024 / 1024).toFixed(1)} MB`);
  line('search p50', `${percentile(latencies, 50).toFixed(2)} ms`);
  line('search p99', `${percentile(latencies, 99).toFixed(2)} ms`);
  line('search max', `${latencies[latencies.length - 1]!.toFixed(2)} ms`);
  for (const [query, hits] of hitsByQuery) line(`  ${query}`, `${hits} hits`);
} finally {
  index.close();
  rmSync(folder, { recursive: true, force: true });
}
