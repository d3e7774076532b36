/**
 * Generations as objects (docs/design/scale-out.md, Generations as objects), on a real PostgreSQL
 * server and an S3 server: a writer publishes a base, then deltas of what each run changed; a
 * node fetches only the objects it lacks, restarted or not, and ends with exactly the writer's
 * rows; an object missing or not holding what its name says is refused and leaves the node's copy
 * as it was; objects no live manifest names go after a grace period.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { FileGroupStore, GroupFile } from '../../../src/blob/index.js';
import { S3FileGroups, S3Objects } from '../../../src/blob/s3.js';
import { SearchIndex } from '../../../src/search/search-index.js';
import { GenerationCache } from '../../../src/search/serving/generation-cache.js';
import {
  type GenerationManifest,
  parseManifest,
  unnamedObjects,
} from '../../../src/search/serving/generation-objects.js';
import { SearchIndexWriter } from '../../../src/search/serving/search-index-writer.js';
import { openPostgresRecordStore } from '../../../src/store/postgres/index.js';
import type { RecordStore, SearchGenerationStore, TenantRef } from '../../../src/store/index.js';
import { SearchServices } from '../../../src/search/serving/search-services.js';
import { systemClock } from '../../../src/util/index.js';
import { searchIndexFile } from '../../../src/config/index.js';
import { generationBackends } from '../../support/generation-backends.js';
import { generationCopyDigests, writerFileDigests } from '../../support/index-file-rows.js';
import { rankedSearch } from '../../support/ranked-search.js';
import { pollUntil } from '../../support/service-harness.js';
import { firstPageRequest } from '../../support/site-search-request.js';
import { orchardPages } from '../../support/orchard-pages.js';
import { contractIn } from '../../store/record-store-contract.js';

const backends = generationBackends('kumo-generation-objects-');
const { folder, closers } = backends;

const pages = orchardPages;

interface Publisher {
  store: RecordStore;
  tenant: TenantRef;
  generations: SearchGenerationStore;
  files: FileGroupStore;
  serviceId: number;
  writer: SearchIndexWriter;
  dataDir: string;
}

async function publisher(): Promise<Publisher> {
  const store = await openPostgresRecordStore(await backends.postgres.createDatabase(), {
    secretKey: Buffer.alloc(32, 9),
  });
  closers.push(() => store.close());
  const tenant = await contractIn(store, 'orchard');
  const service = await store.searchServices.create(tenant, 'orchard search', {}, systemClock.nowMicros());
  const files = new S3FileGroups(
    new S3Objects(backends.s3.client, backends.s3.bucket),
    {
      bucket: backends.s3.bucket,
      prefix: `objects-${service.id}-${Math.random().toString(36).slice(2, 10)}`,
    },
    'indexes',
  );
  const dataDir = mkdtempSync(path.join(folder, 'writer-'));
  const generations = store.searchGenerations!;
  const writer = new SearchIndexWriter({
    generations,
    files,
    owner: 'writer',
    dataDir,
    scratch: path.join(dataDir, 'cache', 'search', 'incoming'),
    clock: systemClock,
  });
  closers.push(() => writer.close());
  return { store, tenant, generations, files, serviceId: service.id, writer, dataDir };
}

function nodeCache(on: Publisher, root = mkdtempSync(path.join(folder, 'node-'))): GenerationCache {
  return new GenerationCache(on.generations, on.files, root);
}

async function manifestOf(on: Publisher): Promise<GenerationManifest> {
  const current = await on.generations.current(on.serviceId);
  const body = await on.files.open(on.serviceId, current!.name);
  const chunks: Buffer[] = [];
  for await (const chunk of body! as AsyncIterable<Buffer>) chunks.push(chunk);
  return parseManifest(Buffer.concat(chunks).toString('utf8'), current!.name);
}

const kinds = (listed: readonly GroupFile[]) =>
  listed.map((file) => path.extname(file.name)).sort((a, b) => a.localeCompare(b));

const writerDigests = (dataDir: string, serviceId: number) =>
  writerFileDigests(searchIndexFile(dataDir, serviceId));

function searchFile(file: string, query: string): number {
  const index = new SearchIndex(file);
  try {
    return rankedSearch(index, query).hits;
  } finally {
    index.close();
  }
}

describe('generations as objects', () => {
  test('a run publishes a delta of what it changed, and a node fetches only that', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 200), 'bundle:a'));
    const base = await manifestOf(on);
    assert.equal(base.deltas.length, 0);
    const node = nodeCache(on);
    const first = await node.current(on.serviceId);
    assert.equal(node.fetchedBytes, base.base.bytes);
    assert.deepEqual(generationCopyDigests(first!.file), writerDigests(on.dataDir, on.serviceId));

    // Five pages change, two go, three come.
    const { published } = await on.writer.write(on.serviceId, async (index) => {
      index.writer.upsert(pages(0, 5, 'second'), 'bundle:a');
      index.writer.remove([pages(5, 2)[0]!.url, pages(6, 1)[0]!.url]);
      index.writer.upsert(pages(200, 3), 'bundle:a');
    });
    assert.equal(published.file, undefined, 'a delta makes no whole copy of the file');
    const second = await manifestOf(on);
    assert.equal(second.base.name, base.base.name, 'the base is not uploaded again');
    assert.equal(second.deltas.length, 1);
    assert.deepEqual(kinds(await on.files.list(on.serviceId)), ['.db', '.delta', '.manifest', '.manifest']);
    const delta = second.deltas[0]!.bytes;
    assert.ok(delta < base.base.bytes / 10, `a delta of ${delta} bytes beside a base of ${base.base.bytes}`);

    const fetchedBefore = node.fetchedBytes;
    const local = await node.current(on.serviceId);
    assert.equal(local!.generation, 2);
    assert.equal(node.fetchedBytes - fetchedBefore, delta, 'the node fetches the delta alone');
    assert.deepEqual(generationCopyDigests(local!.file), writerDigests(on.dataDir, on.serviceId));
    assert.equal(searchFile(local!.file, '"second edition"'), 5);
    assert.equal(searchFile(local!.file, 'orchard'), 201);
  });

  test('a node that restarts fetches only the deltas it lacks', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const root = mkdtempSync(path.join(folder, 'restarting-'));
    await nodeCache(on, root).current(on.serviceId);
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 3, 'second'), 'bundle:a'),
    );
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(3, 3, 'third'), 'bundle:a'),
    );
    const manifest = await manifestOf(on);
    assert.equal(manifest.deltas.length, 2);

    // Started again: the copies it served are gone, its pristine copy stays; the folder of a
    // service with no generation (deleted) goes whole.
    const deleted = path.join(root, '999999');
    mkdirSync(deleted);
    writeFileSync(path.join(deleted, 'pristine.db'), 'an index of a deleted service');
    const restarted = nodeCache(on, root);
    await restarted.clear();
    assert.equal(existsSync(deleted), false);
    const local = await restarted.current(on.serviceId);
    assert.equal(local!.generation, 3);
    assert.equal(restarted.fetchedBytes, manifest.deltas[0]!.bytes + manifest.deltas[1]!.bytes);
    assert.deepEqual(generationCopyDigests(local!.file), writerDigests(on.dataDir, on.serviceId));
  });

  test('a node brings the copy it served before forward instead of copying the whole file', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const root = mkdtempSync(path.join(folder, 'spare-'));
    const node = nodeCache(on, root);
    const served = await node.current(on.serviceId);
    // What a node writes while serving: facets of its segments, and (made up here) facets of the
    // segment id the writer's next segment takes, as a segment merged away would leave them.
    const db = new Database(served!.file);
    const segments = db.prepare('SELECT id FROM segments ORDER BY id').pluck().all() as number[];
    const nextId = Math.max(...segments) + 1;
    const facet = db.prepare('INSERT INTO segment_facets (segment_id, rules_digest, data) VALUES (?, ?, ?)');
    for (const id of [...segments, nextId]) facet.run(id, Buffer.from('rules'), Buffer.from(`facets ${id}`));
    db.close();
    const { ino } = statSync(served!.file);
    await node.discard(served!.file);
    const folderOfService = path.join(root, String(on.serviceId));
    assert.equal(existsSync(served!.file), false);
    assert.equal(existsSync(path.join(folderOfService, 'spare.db')), true);

    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 3, 'second'), 'bundle:a'),
    );
    const manifest = await manifestOf(on);
    const fetchedBefore = node.fetchedBytes;
    const local = await node.current(on.serviceId);
    assert.equal(local!.generation, 2);
    assert.equal(statSync(local!.file).ino, ino, 'the spare copy became the new generation');
    assert.equal(existsSync(path.join(folderOfService, 'spare.db')), false);
    assert.equal(node.fetchedBytes - fetchedBefore, manifest.deltas[0]!.bytes);
    const rows = generationCopyDigests(local!.file);
    const expected = writerDigests(on.dataDir, on.serviceId);
    for (const digests of [rows, expected]) digests.delete('segment_facets');
    assert.deepEqual(rows, expected);
    const kept = new Database(local!.file, { readonly: true });
    const facetsOf = kept.prepare('SELECT segment_id FROM segment_facets ORDER BY segment_id').pluck().all();
    kept.close();
    assert.deepEqual(
      facetsOf,
      segments,
      'facets of the segment the delta wrote are dropped, the others kept',
    );
    assert.equal(searchFile(local!.file, '"second edition"'), 3);
    // The pristine copy was not needed, so it still holds the base alone.
    const pristine = JSON.parse(readFileSync(path.join(folderOfService, 'pristine.json'), 'utf8')) as {
      deltas: string[];
    };
    assert.deepEqual(pristine.deltas, []);
  });

  test('after taking in a base, a node readies a spare, so the first delta is applied, not copied', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const root = mkdtempSync(path.join(folder, 'readied-'));
    const node = nodeCache(on, root);
    await node.current(on.serviceId);
    const spare = path.join(root, String(on.serviceId), 'spare.db');
    const { ino } = await pollUntil('the spare copy', () =>
      existsSync(path.join(root, String(on.serviceId), 'spare.json')) ? statSync(spare) : undefined,
    );
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 2, 'second'), 'bundle:a'),
    );
    const local = await node.current(on.serviceId);
    assert.equal(statSync(local!.file).ino, ino);
    assert.deepEqual(generationCopyDigests(local!.file), writerDigests(on.dataDir, on.serviceId));
  });

  test('a copy of an older base retired after a new base does not take the place of a spare of the new one', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const root = mkdtempSync(path.join(folder, 'rebased-'));
    const node = nodeCache(on, root);
    const old = await node.current(on.serviceId);
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 100, 'second'), 'bundle:a'),
    );
    const rebased = await manifestOf(on);
    await node.current(on.serviceId);
    const spareState = path.join(root, String(on.serviceId), 'spare.json');
    const spareOfNewBase = () => {
      if (!existsSync(spareState)) return undefined;
      const state = JSON.parse(readFileSync(spareState, 'utf8')) as { base: string };
      return state.base === rebased.base.name ? statSync(spareState.replace(/json$/, 'db')) : undefined;
    };
    const { ino } = await pollUntil('a spare of the new base', spareOfNewBase);
    await node.discard(old!.file);
    assert.equal(existsSync(old!.file), false);
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 2, 'third'), 'bundle:a'),
    );
    const local = await node.current(on.serviceId);
    assert.equal(statSync(local!.file).ino, ino, 'the spare of the new base became the generation');
    assert.deepEqual(generationCopyDigests(local!.file), writerDigests(on.dataDir, on.serviceId));
  });

  test('a writer on another data directory catches up and goes on publishing deltas', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const otherDir = mkdtempSync(path.join(folder, 'other-writer-'));
    const other = new SearchIndexWriter({
      generations: on.generations,
      files: on.files,
      owner: 'other',
      dataDir: otherDir,
      scratch: path.join(otherDir, 'incoming'),
      clock: systemClock,
    });
    closers.push(() => other.close());
    await other.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 2, 'second'), 'bundle:a'));
    const manifest = await manifestOf(on);
    assert.equal(manifest.deltas.length, 1, 'the other writer published a delta, not a new base');
    const local = await nodeCache(on).current(on.serviceId);
    assert.deepEqual(generationCopyDigests(local!.file), writerDigests(otherDir, on.serviceId));
  });

  test('a missing or altered object is refused and leaves the node as it was', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const root = mkdtempSync(path.join(folder, 'refusing-'));
    const node = nodeCache(on, root);
    await node.current(on.serviceId);
    const state = readFileSync(path.join(root, String(on.serviceId), 'pristine.json'), 'utf8');
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 3, 'second'), 'bundle:a'),
    );
    const [delta] = (await manifestOf(on)).deltas;

    const altered = path.join(folder, 'altered.delta');
    writeFileSync(altered, 'not the delta');
    await on.files.save(on.serviceId, delta!.name, altered);
    await assert.rejects(node.current(on.serviceId), /does not hold what its name says/);
    await on.files.remove(on.serviceId, delta!.name);
    await assert.rejects(
      node.current(on.serviceId),
      new RegExp(`${delta!.name} of search service .* is missing`),
    );
    assert.equal(readFileSync(path.join(root, String(on.serviceId), 'pristine.json'), 'utf8'), state);
    assert.equal(existsSync(path.join(root, String(on.serviceId), '2.db')), false);
  });

  test('deltas that change a quarter of the documents give way to a new base', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const first = await manifestOf(on);
    await on.writer.write(on.serviceId, async (index) =>
      index.writer.upsert(pages(0, 100, 'second'), 'bundle:a'),
    );
    const second = await manifestOf(on);
    assert.notEqual(second.base.name, first.base.name);
    assert.equal(second.deltas.length, 0);
    const local = await nodeCache(on).current(on.serviceId);
    assert.equal(searchFile(local!.file, '"second edition"'), 100);
  });
});

/** The object storage as a node reaches it, which can stop answering for deltas (the store down for them). */
class UnreachableObjects implements FileGroupStore {
  deltasUnreachable = false;

  constructor(private readonly files: FileGroupStore) {}

  save = (group: number, name: string, file: string) => this.files.save(group, name, file);
  exists = (group: number, name: string) => this.files.exists(group, name);
  list = (group: number) => this.files.list(group);
  remove = (group: number, name: string) => this.files.remove(group, name);
  removeAll = (group: number) => this.files.removeAll(group);
  open(group: number, name: string) {
    if (this.deltasUnreachable && name.endsWith('.delta'))
      return Promise.reject(new Error(`${name} cannot be reached`));
    return this.files.open(group, name);
  }
}

describe('a node that cannot take in a generation', () => {
  test('serves on the one it has, says so, and catches up with the next', async () => {
    const on = await publisher();
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(0, 100), 'bundle:a'));
    const files = new UnreachableObjects(on.files);
    const dataDir = mkdtempSync(path.join(folder, 'following-'));
    const services = new SearchServices(on.store.searchServices, dataDir, systemClock, {
      generations: {
        store: on.generations,
        cache: new GenerationCache(on.generations, files, path.join(dataDir, 'cache')),
        mode: 'follow',
      },
    });
    closers.push(() => services.close());
    await services.follow();
    const hits = async () => {
      const open = await services.get(on.tenant.contractId, on.tenant.servicegroupId, on.serviceId);
      return (await open!.search.search(firstPageRequest('orchard', { doctype: [] }))).organic.hits;
    };
    assert.equal(await hits(), 100);
    assert.deepEqual(services.followedGenerations()?.behind, 0);

    // The next generation's delta cannot be fetched: the node stays on generation 1.
    files.deltasUnreachable = true;
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(100, 20), 'bundle:a'));
    await pollUntil('the node behind', () => services.followedGenerations()?.behind === 1 || undefined);
    assert.match(services.followedGenerations()?.problem ?? '', /cannot be reached/);
    assert.equal(services.servedGeneration(on.serviceId), 1);
    assert.equal(await hits(), 100);

    // Reachable again: the next generation is taken in whole, both deltas fetched.
    files.deltasUnreachable = false;
    await on.writer.write(on.serviceId, async (index) => index.writer.upsert(pages(120, 5), 'bundle:a'));
    await pollUntil('generation 3 served', () => services.servedGeneration(on.serviceId) === 3 || undefined);
    assert.equal(await hits(), 125);
    assert.equal(services.followedGenerations()?.behind, 0);
  });
});

describe('objects no live manifest names', () => {
  const hex = (n: number) => n.toString(16).padStart(64, '0');
  const manifests: Record<string, GenerationManifest> = {
    [`${hex(1)}.manifest`]: {
      format: 1,
      schema: 's',
      base: { name: `${hex(10)}.db`, bytes: 1, documents: 1 },
      deltas: [],
    },
    [`${hex(2)}.manifest`]: {
      format: 1,
      schema: 's',
      base: { name: `${hex(10)}.db`, bytes: 1, documents: 1 },
      deltas: [{ name: `${hex(20)}.delta`, bytes: 1, documents: 1 }],
    },
    [`${hex(3)}.manifest`]: {
      format: 1,
      schema: 's',
      base: { name: `${hex(30)}.db`, bytes: 1, documents: 1 },
      deltas: [],
    },
  };
  const nowMs = 10_000_000;
  const graceMs = 1000;
  const file = (name: string, ageMs: number): GroupFile => ({ name, bytes: 1, modifiedMs: nowMs - ageMs });

  test('go once older than the grace; the current manifest and young ones keep theirs', async () => {
    const listed = [
      file(`${hex(1)}.manifest`, 5000), // old, not current: goes with what only it names
      file(`${hex(2)}.manifest`, 5000), // current
      file(`${hex(3)}.manifest`, 10), // young: a node may still fetch it
      file(`${hex(10)}.db`, 5000),
      file(`${hex(20)}.delta`, 5000),
      file(`${hex(30)}.db`, 5000),
      file(`${hex(40)}.delta`, 5000), // named by nothing: a publication that failed
      file(`${hex(50)}.delta`, 10), // named by nothing yet, but young: being published
      file('0123-old-whole-file.db', 5000), // not an object name: left to the generations' pruning
    ];
    const unnamed = await unnamedObjects(
      listed,
      `${hex(2)}.manifest`,
      graceMs,
      nowMs,
      async (name) => manifests[name],
    );
    assert.deepEqual(unnamed.sort(), [`${hex(1)}.manifest`, `${hex(40)}.delta`]);
  });
});
