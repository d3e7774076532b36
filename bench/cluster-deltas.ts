/**
 * The re-crawl part of bench:cluster (docs/design/scale-out.md, Generations as objects): what a
 * search service's runs move between the writer, the bucket and the search nodes when a site is
 * crawled again after some of its pages changed.
 *
 * A site is crawled once (`kumo crawl`), then again after 1% of its pages were revised, then after
 * 10% (site-revisions.ts: nested shares, each revision's text new). Each bundle is applied as a
 * scheduled run is, by the writer of a service on PostgreSQL and an S3 server (s3rver), and
 * published; two search nodes, each on a thread of its own (cluster-delta-node.ts), make the new
 * generation and answer a search on it. Printed per run: the pages it changed, the index file's
 * bytes (what a whole-file generation moved to the bucket and to each node every run), the bytes
 * uploaded, the bytes each node fetched, and the time from the run's end (its pages written to
 * the writer's index) to its publication recorded and to the generation searchable on every node.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { S3FileGroups, S3Objects } from '../src/blob/s3.js';
import { searchIndexFile } from '../src/config/index.js';
import { Worker } from 'node:worker_threads';
import { SearchIndexWriter } from '../src/search/index.js';
import { applyRunToIndex } from '../src/search/indexing.js';
import { openPostgresRecordStore } from '../src/store/postgres/index.js';
import { systemClock } from '../src/util/index.js';
import type { PostgresServer } from '../test/support/postgres-server.js';
import type { TestS3Server } from '../test/support/s3-server.js';
import { contractIn } from '../test/store/record-store-contract.js';
import type { BenchSite } from './bench-site.js';
import type { NodeSetup, NodeTakeIn } from './cluster-delta-node.js';
import { scaleCrawl } from './scale/scale-crawl.js';

/** The revisions after the first crawl: the share of pages each one rewrites. */
const REVISIONS = [0.01, 0.1];
const NODES = 2;

export interface DeltaRun {
  label: string;
  added: number;
  changed: number;
  indexFileBytes: number;
  uploadedBytes: number;
  fetchedPerNode: number[];
  publishedMs: number;
  /** Per node, from the run's end to the generation on its disk, and to a search answered on it. */
  assembledMs: number[];
  searchableMs: number[];
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const share = (part: number, whole: number) => `${((part / Math.max(1, whole)) * 100).toFixed(1)}%`;

/** Crawls `site` from `seed` three times (revising it between), feeds each crawl to a service and prints the figures. */
export async function measureRecrawlDeltas(
  name: string,
  site: BenchSite,
  seed: string,
  backends: { postgres: PostgresServer; s3: TestS3Server },
): Promise<DeltaRun[]> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-cluster-deltas-'));
  const databaseUrl = await backends.postgres.createDatabase();
  const store = await openPostgresRecordStore(databaseUrl, {
    secretKey: Buffer.alloc(32, 7),
  });
  try {
    const bundles: { label: string; file: string }[] = [];
    for (const [n, revised] of [0, ...REVISIONS].entries()) {
      if (n > 0) await site.revise(n, revised);
      const out = path.join(folder, `crawl-${n}`);
      const crawl = await scaleCrawl({ site, seed, limit: 10_000_000, concurrency: 16, out });
      if (crawl.exitCode !== 0) throw new Error(`${name}: kumo crawl exited ${crawl.exitCode}`);
      bundles.push({
        label: n === 0 ? 'first crawl' : `${revised * 100}% revised`,
        file: path.join(out, 'crawl_objects.tar.gz'),
      });
    }
    const tenant = await contractIn(store, 'deltas');
    const service = await store.searchServices.create(tenant, `${name} search`, {}, systemClock.nowMicros());
    const prefix = `deltas-${name}-${service.id}`;
    const files = new S3FileGroups(
      new S3Objects(backends.s3.client, backends.s3.bucket),
      { bucket: backends.s3.bucket, prefix },
      'indexes',
    );
    const generations = store.searchGenerations!;
    const dataDir = path.join(folder, 'writer');
    const writer = new SearchIndexWriter({
      generations,
      files,
      owner: 'bench-writer',
      dataDir,
      scratch: path.join(dataDir, 'incoming'),
      clock: systemClock,
    });
    const nodes = Array.from({ length: NODES }, (_, n) =>
      startNode({
        databaseUrl,
        s3Env: backends.s3.env,
        bucket: backends.s3.bucket,
        prefix,
        root: path.join(folder, `node-${n}`),
      }),
    );
    const runs: DeltaRun[] = [];
    try {
      for (const [n, bundle] of bundles.entries()) {
        const listed = new Set((await files.list(service.id)).map((file) => file.name));
        let ended = 0;
        const { result } = await writer.write(service.id, async (index) => {
          const summary = await applyRunToIndex(index, `run-${n}`, 'setting:1', bundle.file, {
            gone: new Set(),
            failed: new Set(),
            complete: false,
          });
          ended = now();
          return summary;
        });
        const published = now();
        const takenIn = await Promise.all(nodes.map((node) => node.takeIn(service.id)));
        const uploaded = (await files.list(service.id))
          .filter((file) => !listed.has(file.name))
          .reduce((sum, file) => sum + file.bytes, 0);
        const run: DeltaRun = {
          label: bundle.label,
          added: result.added,
          changed: result.updated,
          indexFileBytes: (await stat(searchIndexFile(dataDir, service.id))).size,
          uploadedBytes: uploaded,
          fetchedPerNode: takenIn.map((node) => node.fetchedBytes),
          publishedMs: published - ended,
          assembledMs: takenIn.map((node) => node.assembledAt - ended),
          searchableMs: takenIn.map((node) => node.searchedAt - ended),
        };
        runs.push(run);
        process.stderr.write(
          `  ${name} ${run.label}: ${run.added} new, ${run.changed} changed; uploaded ${megabytes(uploaded)}\n`,
        );
      }
    } finally {
      writer.close();
      await Promise.all(nodes.map((node) => node.close()));
    }
    printRuns(name, runs);
    return runs;
  } finally {
    await store.close();
    await rm(folder, { recursive: true, force: true });
  }
}

function printRuns(name: string, runs: readonly DeltaRun[]): void {
  const line = (label: string, value: string) => process.stdout.write(`  ${label.padEnd(28)}${value}\n`);
  process.stdout.write(`\n${name}: re-crawls published as objects, ${NODES} search nodes\n`);
  for (const run of runs) {
    line(run.label, `${run.added} pages new, ${run.changed} changed`);
    line('  index file (whole-file)', megabytes(run.indexFileBytes));
    line('  uploaded', `${megabytes(run.uploadedBytes)} (${share(run.uploadedBytes, run.indexFileBytes)})`);
    line(
      '  fetched per node',
      run.fetchedPerNode
        .map((bytes) => `${megabytes(bytes)} (${share(bytes, run.indexFileBytes)})`)
        .join(', '),
    );
    const milliseconds = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    line('  run end → published', `${run.publishedMs.toFixed(0)} ms`);
    line('  run end → on each node', `${milliseconds(run.assembledMs)} ms`);
    line('  run end → searchable', `${milliseconds(run.searchableMs)} ms (each node)`);
  }
}

const now = () => performance.timeOrigin + performance.now();

interface BenchNode {
  takeIn(serviceId: number): Promise<NodeTakeIn>;
  close(): Promise<void>;
}

/** A search node on a thread of its own (cluster-delta-node.ts). */
function startNode(setup: NodeSetup): BenchNode {
  const thread = new Worker(new URL('./cluster-delta-node.js', import.meta.url), { workerData: setup });
  const ask = <T>(message: unknown) =>
    new Promise<T>((resolve, reject) => {
      thread.once('message', (reply: T | { error: string }) =>
        typeof reply === 'object' && reply !== null && 'error' in reply
          ? reject(new Error(`a search node: ${reply.error}`))
          : resolve(reply as T),
      );
      thread.once('error', reject);
      thread.postMessage(message);
    });
  return {
    takeIn: (serviceId) => ask<NodeTakeIn>({ serviceId }),
    close: async () => {
      await ask('close');
      await thread.terminate();
    },
  };
}
