/**
 * Search nodes on a shared store (docs/design/scale-out.md, Search nodes), on a real PostgreSQL
 * server and an S3 server: one writer per search service at a time publishes immutable generations;
 * a writer on another data directory first takes in what was published; every node serving the
 * service is told of a new generation and switches to it whole while searches run; the query and
 * click counts carry over the switch.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { FileGroupStore } from '../../../src/blob/index.js';
import { S3FileGroups, S3Objects } from '../../../src/blob/s3.js';
import type { IndexedDocument } from '../../../src/search/indexed-document.js';
import type { SiteSearchRequest } from '../../../src/search/site/search-response.js';
import { GenerationCache } from '../../../src/search/serving/generation-cache.js';
import { SearchIndexWriter } from '../../../src/search/serving/search-index-writer.js';
import { SearchServices } from '../../../src/search/serving/search-services.js';
import { openPostgresRecordStore } from '../../../src/store/postgres/index.js';
import type { RecordStore, TenantRef } from '../../../src/store/index.js';
import { systemClock } from '../../../src/util/index.js';
import { generationBackends } from '../../support/generation-backends.js';
import { contractIn } from '../../store/record-store-contract.js';

const backends = generationBackends('kumo-generations-');
const { folder, closers } = backends;

const REQUEST: SiteSearchRequest = {
  q: 'orchard',
  pageNumber: 1,
  numberPerPage: 100,
  sortKeys: [{ field: 'score', order: 'desc' }],
  category: '',
  drilldown: [],
  doctype: [],
};

function pages(from: number, count: number): IndexedDocument[] {
  return Array.from({ length: count }, (_, n) => ({
    url: `https://orchard.example/page-${from + n}.html`,
    title: `Orchard page ${from + n}`,
    description: '',
    body: `The orchard grows pear ${from + n} and apple trees.`,
  }));
}

interface Cluster {
  store: RecordStore;
  tenant: TenantRef;
  serviceId: number;
  files: FileGroupStore;
}

async function cluster(): Promise<Cluster> {
  const store = await openPostgresRecordStore(await backends.postgres.createDatabase(), {
    secretKey: Buffer.alloc(32, 9),
  });
  closers.push(() => store.close());
  const tenant = await contractIn(store, 'orchard');
  const service = await store.searchServices.create(tenant, 'orchard search', {}, systemClock.nowMicros());
  // One bucket, a prefix per cluster.
  const prefix = `cluster-${service.id}-${Math.random().toString(36).slice(2, 10)}`;
  const files = new S3FileGroups(
    new S3Objects(backends.s3.client, backends.s3.bucket),
    { bucket: backends.s3.bucket, prefix },
    'indexes',
  );
  return { store, tenant, serviceId: service.id, files };
}

let nodes = 0;
/** A process's side of search: its data directory, its writer and the services it serves. */
function node(on: Cluster): { writer: SearchIndexWriter; services: SearchServices; name: string } {
  const name = `node-${(nodes += 1)}`;
  const dataDir = path.join(folder, name);
  const generations = on.store.searchGenerations!;
  const cache = new GenerationCache(generations, on.files, path.join(dataDir, 'cache', 'search'));
  const writer = new SearchIndexWriter({
    generations,
    files: on.files,
    owner: name,
    dataDir,
    scratch: path.join(dataDir, 'cache', 'search', 'incoming'),
    clock: systemClock,
  });
  const services = new SearchServices(on.store.searchServices, dataDir, systemClock, {
    sharedActivity: on.store.searchActivity,
    generations: { store: generations, cache, mode: 'follow' },
  });
  closers.push(async () => {
    await services.close();
    writer.close();
  });
  return { writer, services, name };
}

async function hits(services: SearchServices, on: Cluster): Promise<number> {
  const open = await services.get(on.tenant.contractId, on.tenant.servicegroupId, on.serviceId);
  return (await open!.search.search(REQUEST)).organic.hits;
}

/** Resolves once `check` holds, polling every 10 ms; fails after `ms`. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

describe('search nodes', () => {
  test('a published generation is served by every node, switched whole while searches run', async () => {
    const on = await cluster();
    const [writing, reading] = [node(on), node(on)];
    await Promise.all([writing.services.follow(), reading.services.follow()]);
    // Nothing published yet: an empty index answers.
    assert.equal(await hits(reading.services, on), 0);

    const first = await writing.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 40), 'bundle:a'),
    );
    assert.equal(first.published.generation, 1);
    await writing.services.adopt(on.serviceId, 1, first.published.file);
    // The writing node serves it before its run would be reported finished.
    assert.equal(await hits(writing.services, on), 40);
    const told = await eventually(async () => (await hits(reading.services, on)) === 40);
    assert.ok(told < 2000, `the other node served generation 1 after ${told} ms`);

    // Searches keep running on the reading node while generation 2 is published and taken in:
    // each sees 40 or 100 documents, never a state in between.
    const seen = new Set<number>();
    let searching = true;
    const load = (async () => {
      while (searching) seen.add(await hits(reading.services, on));
    })();
    const second = await writing.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(40, 60), 'bundle:a'),
    );
    await writing.services.adopt(on.serviceId, second.published.generation, second.published.file);
    await eventually(async () => reading.services.servedGeneration(on.serviceId) === 2);
    await eventually(() => seen.has(100));
    searching = false;
    await load;
    assert.deepEqual(
      [...seen].sort((a, b) => a - b),
      [40, 100],
    );
    const current = await on.store.searchGenerations!.current(on.serviceId);
    assert.equal(current?.generation, 2);
    assert.equal(current?.documents, 100);
  });

  test('one writer at a time; a writer on another data directory starts from what was published', async () => {
    const on = await cluster();
    const [first, second] = [node(on), node(on)];
    const order: string[] = [];
    let release!: () => void;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    const one = first.writer.write(on.serviceId, async (index) => {
      order.push('first starts');
      await holding;
      index.writer.upsert(pages(0, 10), 'bundle:first');
      order.push('first ends');
    });
    await eventually(() => order.length === 1);
    const two = second.writer.write(on.serviceId, async (index) => {
      order.push(`second starts on ${index.documentCount} documents`);
      index.writer.upsert(pages(10, 5), 'bundle:second');
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.deepEqual(order, ['first starts'], 'the second writer waits for the lease');
    release();
    const [a, b] = await Promise.all([one, two]);
    assert.deepEqual(order, ['first starts', 'first ends', 'second starts on 10 documents']);
    assert.deepEqual([a.published.generation, b.published.generation], [1, 2]);
    await second.services.adopt(on.serviceId, 2, b.published.file);
    assert.equal(await hits(second.services, on), 15);
    // A third node opening now serves the newest generation, fetched from the bucket.
    assert.equal(await hits(node(on).services, on), 15);
  });

  test('a writer whose lease another process took publishes nothing', async () => {
    const on = await cluster();
    const late = node(on);
    const generations = on.store.searchGenerations!;
    await assert.rejects(
      late.writer.write(on.serviceId, async (index) => {
        index.writer.upsert(pages(0, 3), 'bundle:late');
        // Its lease ended meanwhile (paused too long), and another process took it.
        await generations.releaseWriter(on.serviceId, late.name);
        assert.equal(await generations.takeWriter(on.serviceId, 'someone-else', 60_000), true);
      }),
      { name: 'WriterLeaseLostError' },
    );
    assert.equal(await generations.current(on.serviceId), undefined);
  });

  test('a generation written from an older one than the newest is refused, even under the lease', async () => {
    const on = await cluster();
    const generations = on.store.searchGenerations!;
    const file = { name: 'a.db', bytes: 1, documents: 1 };
    assert.equal(await generations.takeWriter(on.serviceId, 'writer-a', 60_000), true);
    assert.equal(await generations.publish(on.serviceId, 'writer-a', file, 0, 1), 1);
    // Its lease lapsed, another writer published generation 2, and the lease came back to it.
    await generations.releaseWriter(on.serviceId, 'writer-a');
    assert.equal(await generations.takeWriter(on.serviceId, 'writer-b', 60_000), true);
    assert.equal(await generations.publish(on.serviceId, 'writer-b', { ...file, name: 'b.db' }, 1, 2), 2);
    await generations.releaseWriter(on.serviceId, 'writer-b');
    assert.equal(await generations.takeWriter(on.serviceId, 'writer-a', 60_000), true);
    await assert.rejects(generations.publish(on.serviceId, 'writer-a', { ...file, name: 'c.db' }, 1, 3), {
      name: 'WriterLeaseLostError',
      message: /published as generation 2 by another process while this one wrote from generation 1/,
    });
    assert.equal((await generations.current(on.serviceId))?.name, 'b.db');
  });

  test('what visitors did is carried over a switch and reaches the shared log once', async () => {
    const on = await cluster();
    const [writing, reading] = [node(on), node(on)];
    await reading.services.follow();
    const first = await writing.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 5), 'bundle:a'),
    );
    await writing.services.adopt(on.serviceId, 1, first.published.file);
    await eventually(async () => (await hits(reading.services, on)) === 5);
    const open = async () =>
      (await reading.services.get(on.tenant.contractId, on.tenant.servicegroupId, on.serviceId))!.search;
    (await open()).activity.recordQuery('pear tree', 5);
    (await open()).click('https://orchard.example/page-1.html', 'pear tree');
    const second = await writing.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(5, 5), 'bundle:a'),
    );
    await writing.services.adopt(on.serviceId, 2, second.published.file);
    await eventually(() => reading.services.servedGeneration(on.serviceId) === 2);
    const now = await open();
    assert.equal(now.activity.clicksOf('https://orchard.example/page-1.html'), 1);
    // 'orchard' (the searches above) and 'pear tree'.
    assert.equal(now.activity.trackedQueries, 2);
    await reading.services.flush();
    await eventually(async () => {
      const counts = await on.store.searchActivity!.forService(on.serviceId).counts(10);
      return counts.clicks.get('https://orchard.example/page-1.html') === 1 && counts.queries.length === 2;
    });
    const counts = await on.store.searchActivity!.forService(on.serviceId).counts(10);
    assert.deepEqual(
      counts.queries.find((entry) => entry.query === 'pear tree'),
      { query: 'pear tree', count: 1, hits: 5 },
    );
    assert.deepEqual(counts.queryClicks, new Map([['pear tree', 1]]));
  });
});
