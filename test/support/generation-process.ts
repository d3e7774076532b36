/**
 * A process of a cluster's search generations, for the tests that kill one with SIGKILL at any
 * moment: a worker publishing a run (`write`: pages written to its index under the writer lease,
 * then published, as a worker feeding a run does) or a search node starting (`take-in`: its
 * served copies cleared, then the newest generation made, as `kumo serve --roles search` does).
 * Told what to do by a JSON argument; prints `ready` once its stores are open and starts at once,
 * then `done <JSON>` when it is through.
 */
import { S3FileGroups, S3Objects, s3ClientFromEnv } from '../../src/blob/s3.js';
import { GenerationCache, SearchIndexWriter } from '../../src/search/index.js';
import { openPostgresRecordStore } from '../../src/store/postgres/index.js';
import { systemClock } from '../../src/util/index.js';
import { orchardPages } from './orchard-pages.js';

export interface GenerationBackendsOf {
  databaseUrl: string;
  s3Env: Record<string, string>;
  bucket: string;
  prefix: string;
  serviceId: number;
}

export type GenerationProcessTask = GenerationBackendsOf &
  (
    | {
        role: 'write';
        dataDir: string;
        owner: string;
        pages: { from: number; count: number; edition: string };
      }
    | { role: 'take-in'; root: string }
  );

const task = JSON.parse(process.argv[2]!) as GenerationProcessTask;
const store = await openPostgresRecordStore(task.databaseUrl, { secretKey: Buffer.alloc(32, 9) });
const files = new S3FileGroups(
  new S3Objects(s3ClientFromEnv(task.s3Env), task.bucket),
  { bucket: task.bucket, prefix: task.prefix },
  'indexes',
);
const generations = store.searchGenerations!;
process.stdout.write('ready\n');
if (task.role === 'write') {
  const writer = new SearchIndexWriter({
    generations,
    files,
    owner: task.owner,
    dataDir: task.dataDir,
    scratch: `${task.dataDir}/incoming`,
    clock: systemClock,
  });
  const { from, count, edition } = task.pages;
  const { published } = await writer.write(task.serviceId, async (index) =>
    index.writer.upsert(orchardPages(from, count, edition), 'bundle:a'),
  );
  writer.close();
  process.stdout.write(`done ${JSON.stringify({ generation: published.generation })}\n`);
} else {
  const cache = new GenerationCache(generations, files, task.root);
  await cache.clear();
  const local = await cache.current(task.serviceId);
  process.stdout.write(`done ${JSON.stringify({ ...local, fetchedBytes: cache.fetchedBytes })}\n`);
}
await store.close();
