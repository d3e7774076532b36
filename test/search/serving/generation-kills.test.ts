/**
 * Kill -9 of the processes of published generations (docs/design/scale-out.md, Generations as
 * objects), on a real PostgreSQL server and an S3 server: a worker killed at moments spread over a
 * publication, and a search node killed at moments spread over taking one in. After each kill
 * nothing recorded names a missing object, the process started again ends the work, and a node's
 * copy holds exactly the rows of the writer's index for that generation, never a mix.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { S3FileGroups, S3Objects } from '../../../src/blob/s3.js';
import { searchIndexFile } from '../../../src/config/index.js';
import { GenerationCache } from '../../../src/search/serving/generation-cache.js';
import { openPostgresRecordStore } from '../../../src/store/postgres/index.js';
import type { SearchGenerationStore } from '../../../src/store/index.js';
import { systemClock } from '../../../src/util/index.js';
import { generationBackends } from '../../support/generation-backends.js';
import type { GenerationBackendsOf, GenerationProcessTask } from '../../support/generation-process.js';
import { generationCopyDigests, writerFileDigests } from '../../support/index-file-rows.js';
import { contractIn } from '../../store/record-store-contract.js';

const backends = generationBackends('kumo-generation-kills-');
const { folder, closers } = backends;
const PROCESS_SCRIPT = new URL('../../support/generation-process.js', import.meta.url).pathname;
/** Kills per test, at moments spread evenly over the work a process did when not killed. */
const KILLS = 6;
const PAGES = 600;

interface Finished {
  /** Whether SIGKILL ended the process before it was through. */
  killed: boolean;
  done?: Record<string, unknown>;
  /** From `ready` to the process's exit. */
  ms: number;
}

/** Runs a generation process to its end, or kills it `killAfterMs` after it said it was ready. */
function runProcess(task: GenerationProcessTask, killAfterMs?: number): Promise<Finished> {
  const child = spawn(process.execPath, [PROCESS_SCRIPT, JSON.stringify(task)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  let readyAt = 0;
  let done: Record<string, unknown> | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') {
      readyAt = performance.now();
      if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    } else if (line.startsWith('done ')) done = JSON.parse(line.slice(5)) as Record<string, unknown>;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      const ms = performance.now() - readyAt;
      if (signal === 'SIGKILL') resolve({ killed: done === undefined, done, ms });
      else if (code === 0 && done !== undefined) resolve({ killed: false, done, ms });
      else reject(new Error(`the ${task.role} process exited ${code ?? signal}: ${errors}`));
    });
  });
}

interface Service extends GenerationBackendsOf {
  generations: SearchGenerationStore;
  files: S3FileGroups;
}

async function service(): Promise<Service> {
  const databaseUrl = await backends.postgres.createDatabase();
  const store = await openPostgresRecordStore(databaseUrl, { secretKey: Buffer.alloc(32, 9) });
  closers.push(() => store.close());
  const tenant = await contractIn(store, 'orchard');
  const record = await store.searchServices.create(tenant, 'orchard search', {}, systemClock.nowMicros());
  const prefix = `kills-${record.id}-${Math.random().toString(36).slice(2, 10)}`;
  const files = new S3FileGroups(
    new S3Objects(backends.s3.client, backends.s3.bucket),
    { bucket: backends.s3.bucket, prefix },
    'indexes',
  );
  return {
    databaseUrl,
    s3Env: backends.s3.env,
    bucket: backends.s3.bucket,
    prefix,
    serviceId: record.id,
    generations: store.searchGenerations!,
    files,
  };
}

/** The task of a worker writing `count` pages of an edition and publishing them. */
function writing(on: Service, dataDir: string, from: number, count: number, edition: string) {
  return {
    ...pick(on),
    role: 'write' as const,
    dataDir,
    // The worker started again is the same worker: its lease is its own, not waited out.
    owner: 'worker-1',
    pages: { from, count, edition },
  };
}

function takingIn(on: Service, root: string) {
  return { ...pick(on), role: 'take-in' as const, root };
}

const pick = ({ databaseUrl, s3Env, bucket, prefix, serviceId }: GenerationBackendsOf) => ({
  databaseUrl,
  s3Env,
  bucket,
  prefix,
  serviceId,
});

const writerDigests = (dataDir: string, serviceId: number) =>
  writerFileDigests(searchIndexFile(dataDir, serviceId));

/** Asserts that the newest recorded generation names no object missing from storage. */
async function assertNothingMissing(on: Service): Promise<void> {
  const current = await on.generations.current(on.serviceId);
  if (current === undefined) return;
  const stored = new Set((await on.files.list(on.serviceId)).map((file) => file.name));
  assert.ok(stored.has(current.name), `the recorded manifest ${current.name} is stored`);
  const body = await on.files.open(on.serviceId, current.name);
  const chunks: Buffer[] = [];
  for await (const chunk of body! as AsyncIterable<Buffer>) chunks.push(chunk);
  const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
    base: { name: string };
    deltas: { name: string }[];
  };
  for (const object of [manifest.base, ...manifest.deltas])
    assert.ok(
      stored.has(object.name),
      `generation ${current.generation} names ${object.name}, which is stored`,
    );
}

describe('kill -9 of the processes of published generations', () => {
  test('a publishing worker killed at any moment loses nothing, and a node takes in whole generations', async () => {
    const on = await service();
    const dataDir = mkdtempSync(path.join(folder, 'worker-'));
    const node = new GenerationCache(on.generations, on.files, mkdtempSync(path.join(folder, 'node-')));
    await runProcess(writing(on, dataDir, 0, PAGES, 'first'));
    const second = await runProcess(writing(on, dataDir, 0, 60, 'second'));
    const span = second.ms;
    let kills = 0;
    for (let round = 1; round <= KILLS; round += 1) {
      // Each round rewrites 60 pages; some rounds pass a quarter of the base and publish a new one.
      const task = writing(on, dataDir, round * 40, 60, `edition${round}`);
      const killed = await runProcess(task, (span * round) / (KILLS + 1));
      if (killed.killed) kills += 1;
      await assertNothingMissing(on);
      // Started again, the worker applies the run again and publishes.
      const again = await runProcess(task);
      const generation = again.done!.generation as number;
      const local = await node.current(on.serviceId);
      assert.equal(local!.generation, generation);
      assert.deepEqual(
        generationCopyDigests(local!.file),
        writerDigests(dataDir, on.serviceId),
        `round ${round}: the node's copy of generation ${generation} holds the writer's rows`,
      );
    }
    assert.ok(kills >= KILLS / 2, `${kills} of ${KILLS} processes were killed before they were through`);
  });

  test('a search node killed at any moment takes in a whole generation when it starts again', async () => {
    const on = await service();
    const dataDir = mkdtempSync(path.join(folder, 'worker-'));
    const root = mkdtempSync(path.join(folder, 'node-'));
    await runProcess(writing(on, dataDir, 0, PAGES, 'first'));
    const base = await runProcess(takingIn(on, root));
    const baseBytes = base.done!.fetchedBytes as number;
    await runProcess(writing(on, dataDir, 0, 20, 'second'));
    const span = (await runProcess(takingIn(on, root))).ms;
    let kills = 0;
    for (let round = 1; round <= KILLS; round += 1) {
      await runProcess(writing(on, dataDir, round * 20, 20, `edition${round}`));
      const killed = await runProcess(takingIn(on, root), (span * round) / (KILLS + 1));
      if (killed.killed) kills += 1;
      const started = await runProcess(takingIn(on, root));
      const current = await on.generations.current(on.serviceId);
      assert.equal(started.done!.generation, current!.generation);
      assert.ok(
        (started.done!.fetchedBytes as number) < baseBytes,
        `round ${round}: the node started again fetched ${String(started.done!.fetchedBytes)} bytes, not the base's ${baseBytes}`,
      );
      assert.deepEqual(
        generationCopyDigests(started.done!.file as string),
        writerDigests(dataDir, on.serviceId),
        `round ${round}: the node's copy holds the writer's rows`,
      );
    }
    assert.ok(kills >= KILLS / 2, `${kills} of ${KILLS} nodes were killed before they were through`);
  });
});
