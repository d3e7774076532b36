/**
 * One search node of the re-crawl bench (cluster-deltas.ts), on a thread of its own as a node is a
 * process of its own: asked to, it takes in the service's newest generation from PostgreSQL and
 * the S3 server (GenerationCache, as `kumo serve --roles search` does), opens it and answers a
 * search on it, then answers how long each part took and the bytes it fetched. The generation it
 * served before is closed and given up 30 s later, as a node does with one it retired.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { S3FileGroups, S3Objects, s3ClientFromEnv } from '../src/blob/s3.js';
import { GenerationCache } from '../src/search/index.js';
import { SearchIndex } from '../src/search/local-index.js';
import { openPostgresRecordStore } from '../src/store/postgres/index.js';
import { rankedSearch } from '../test/support/ranked-search.js';

export interface NodeSetup {
  databaseUrl: string;
  s3Env: Record<string, string>;
  bucket: string;
  prefix: string;
  root: string;
}

export interface NodeTakeIn {
  /** When the generation was on disk, and when the search on it answered (ms since the epoch). */
  assembledAt: number;
  searchedAt: number;
  fetchedBytes: number;
}

/** As long as a node keeps a retired generation open (search-services.ts). */
const RETIRED_CLOSE_MS = 30_000;

const setup = workerData as NodeSetup;
const store = await openPostgresRecordStore(setup.databaseUrl, { secretKey: Buffer.alloc(32, 7) });
const files = new S3FileGroups(
  new S3Objects(s3ClientFromEnv(setup.s3Env), setup.bucket),
  { bucket: setup.bucket, prefix: setup.prefix },
  'indexes',
);
const cache = new GenerationCache(store.searchGenerations!, files, setup.root);
let served: { index: SearchIndex; file: string } | undefined;
const retiring = new Set<Promise<void>>();

const now = () => performance.timeOrigin + performance.now();

parentPort!.on('message', (message: { serviceId: number } | 'close') => {
  void (async () => {
    if (message === 'close') {
      await Promise.all(retiring);
      served?.index.close();
      await store.close();
      parentPort!.postMessage('closed');
      return;
    }
    const fetchedBefore = cache.fetchedBytes;
    const local = await cache.current(message.serviceId);
    const assembledAt = now();
    const index = new SearchIndex(local!.file);
    if (rankedSearch(index, 'the').hits === 0) throw new Error('nothing found on a node');
    const searchedAt = now();
    const old = served;
    served = { index, file: local!.file };
    if (old !== undefined) {
      const retired = new Promise<void>((resolve) => setTimeout(resolve, RETIRED_CLOSE_MS)).then(async () => {
        old.index.close();
        await cache.discard(old.file);
      });
      retiring.add(retired);
    }
    const reply: NodeTakeIn = { assembledAt, searchedAt, fetchedBytes: cache.fetchedBytes - fetchedBefore };
    parentPort!.postMessage(reply);
  })().catch((error: unknown) => parentPort!.postMessage({ error: String(error) }));
});
