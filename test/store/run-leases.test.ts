/**
 * Run leases and checkpoints on PostgreSQL (docs/design/scale-out.md, Run leases): who holds a run,
 * when another worker may take it, that a worker which lost a run cannot write into it, and that
 * a run store checkpointed while it grows is rebuilt elsewhere row for row, page file for page file.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ObjectSpool } from '../../src/artifacts/index.js';
import { LocalFileGroups } from '../../src/blob/index.js';
import { RunState } from '../../src/domain/index.js';
import { openPostgresRecordStore } from '../../src/store/postgres/open-postgres-record-store.js';
import {
  type PageCommit,
  type CheckpointMarks,
  CheckpointReader,
  NO_MARKS,
  type RunCheckpoint,
  restoreRunData,
  SqliteRunDataStore,
} from '../../src/run-data/index.js';
import type { RunLeaseStore } from '../../src/store/record-store.js';
import type { RecordStore } from '../../src/store/record-store.js';
import { connectPostgres, type PgSql } from '../../src/store/postgres/pg-connection.js';
import {
  checkpointEntries,
  checkpointLinks,
  checkpointRows,
  saveRunCheckpoint,
} from '../../src/store/postgres/pg-run-leases.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { contractIn, post } from './record-store-contract.js';

const SECRET_KEY = Buffer.alloc(32, 0x33);
const SECOND = 1_000_000;
const T0 = 1_700_000_000 * SECOND;

let server: PostgresServer;
let store: RecordStore;
let leases: RunLeaseStore;
let sql: PgSql;
before(async () => {
  server = await startPostgresServer();
  const url = await server.createDatabase();
  store = await openPostgresRecordStore(url, { secretKey: SECRET_KEY });
  leases = store.runLeases!;
  sql = connectPostgres(url);
});
after(async () => {
  await sql.end();
  await store.close();
  await server.stop();
});

/** A new pending run claimed by `owner` with a lease of 30 s from T0; its id. */
async function claimedBy(owner: string): Promise<number> {
  const tenant = await contractIn(store, `c-${owner}-${Math.random()}`);
  const runId = await post(store, tenant, 'run', new Map());
  const run = await store.runs.claimNextPending(T0, { lease: { owner, untilMicros: T0 + 30 * SECOND } });
  assert.equal(run?.id, runId);
  return runId;
}

describe('run leases', () => {
  test('a held run is not taken; an expired one is, and its old owner can no longer renew or write', async () => {
    const runId = await claimedBy('worker-a');
    assert.equal(
      await leases.takeAbandoned({ owner: 'worker-b', untilMicros: T0 + 60 * SECOND }, T0 + SECOND),
      undefined,
    );
    assert.deepEqual(await leases.renew('worker-a', [runId], T0 + 40 * SECOND), new Map([[runId, false]]));
    // Renewed to T0 + 40 s: still held at T0 + 35 s, abandoned after.
    assert.equal(
      await leases.takeAbandoned({ owner: 'worker-b', untilMicros: 0 }, T0 + 35 * SECOND),
      undefined,
    );
    // A worker never takes a run it still executes (its own lease lapsed while the store was away).
    const own = { owner: 'worker-a', untilMicros: T0 + 100 * SECOND };
    assert.equal(await leases.takeAbandoned(own, T0 + 41 * SECOND, [runId]), undefined);
    const taken = await leases.takeAbandoned(
      { owner: 'worker-b', untilMicros: T0 + 100 * SECOND },
      T0 + 41 * SECOND,
    );
    assert.equal(taken?.id, runId);
    assert.equal(taken?.state, RunState.running);
    assert.deepEqual(await leases.renew('worker-a', [runId], T0 + 50 * SECOND), new Map());
    assert.equal(
      await saveRunCheckpoint(sql, 'worker-a', runId, [{ entries: [], rows: [], links: [] }]),
      false,
    );
    assert.equal(
      await saveRunCheckpoint(sql, 'worker-b', runId, [{ entries: [], rows: [], links: [] }]),
      true,
    );
  });

  test('every lease ended at once, as the sole server does at its start: a held run is taken now', async () => {
    const runId = await claimedBy('worker-crashed');
    await leases.releaseAll();
    const taken = [];
    for (
      let run;
      (run = await leases.takeAbandoned({ owner: 'worker-new', untilMicros: T0 + 9999 * SECOND }, T0));
    )
      taken.push(run.id);
    assert.ok(taken.includes(runId), `taken: ${taken.join(', ')}`);
  });

  test('a renewal brings the cancel asked on another process', async () => {
    const runId = await claimedBy('worker-c');
    await store.runs.requestCancel(runId, T0 + SECOND);
    assert.deepEqual(await leases.renew('worker-c', [runId], T0 + 40 * SECOND), new Map([[runId, true]]));
  });

  test('a listener is told of each run queued and each cancel asked, by any process, as it commits', async () => {
    const told: string[] = [];
    const toldAll = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const look = () => {
          if (told.length >= count) resolve();
          else if (Date.now() - started > 5000) reject(new Error(`told only ${told.join(', ')}`));
          else setTimeout(look, 10);
        };
        look();
      });
    let connections = 0;
    // Another process: a store of its own on the same database.
    const other = await openPostgresRecordStore(await server.createDatabase(), { secretKey: SECRET_KEY });
    const listening = await leases.listen(
      { pending: () => told.push('pending'), cancelAsked: (runId) => told.push(`cancel ${runId}`) },
      () => (connections += 1),
    );
    try {
      assert.equal(connections, 1, 'told once it listens');
      const runId = await claimedBy('worker-e');
      await toldAll(1);
      assert.deepEqual(told, ['pending']);
      await store.runs.requestCancel(runId, T0 + SECOND);
      await toldAll(2);
      assert.deepEqual(told, ['pending', `cancel ${runId}`]);
      // Asked again: already asked, nothing new to tell.
      await store.runs.requestCancel(runId, T0 + 2 * SECOND);
      const secondId = await post(
        store,
        await contractIn(store, `c-listen-${Math.random()}`),
        'second',
        new Map(),
      );
      await toldAll(3);
      // Not left pending for the tests after this one.
      assert.ok(await store.runs.finishIfPending(secondId, RunState.stoppedByCancel, T0, 'cancelled'));
      assert.deepEqual(told, ['pending', `cancel ${runId}`, 'pending']);
      // A run queued in another database is not this one's.
      await post(other, await contractIn(other, 'elsewhere'), 'elsewhere', new Map());
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(told.length, 3);
    } finally {
      await listening.close();
      await other.close();
    }
  });

  test('a run handed back is taken at once; a finished run is never taken', async () => {
    const runId = await claimedBy('worker-d');
    await leases.release('worker-d', runId);
    const taken = await leases.takeAbandoned(
      { owner: 'worker-e', untilMicros: T0 + 30 * SECOND },
      T0 + SECOND,
    );
    assert.equal(taken?.id, runId);
    await store.runs.finish(runId, RunState.stopped, T0 + 2 * SECOND, [], '');
    assert.deepEqual(await leases.renew('worker-e', [runId], T0 + 40 * SECOND), new Map());
    // The other tests' runs are abandoned by then; this one, ended, is not among them.
    const abandoned = [];
    for (
      let run;
      (run = await leases.takeAbandoned(
        { owner: 'worker-f', untilMicros: T0 + 9999 * SECOND },
        T0 + 999 * SECOND,
      ));
    )
      abandoned.push(run.id);
    assert.ok(abandoned.length > 0 && !abandoned.includes(runId));
  });
});

/** A crawl's page commit with page files of `size` bytes of `fill`, discovering `links`. */
function page(seq: number, url: string, links: string[], spool: ObjectSpool, fill: number): PageCommit {
  const bytes = Buffer.alloc(100 + seq, fill);
  const offset = spool.append([bytes]);
  return {
    frontierSeq: seq,
    row: {
      crawlUrl: url,
      lastUrl: null,
      ok: true,
      crawlMicros: 1000 + seq,
      httpStatus: 200,
      lastModified: null,
      contentType: 'text/html',
      contentLength: bytes.length,
      fetchError: null,
    },
    object: { offset, bytes: bytes.length },
    discovered: links.map((link) => ({
      fingerprint: Buffer.from(link),
      url: link,
      depth: 1,
      referrer: url,
    })),
    links: links.map((link) => ({ sourceUrl: url, linkUrl: link, anchorText: `to ${link}`, rel: '' })),
  };
}

describe('checkpoints', () => {
  test('a run store checkpointed twice while it grows is rebuilt elsewhere with the same rows, links and page files', async () => {
    const runId = await claimedBy('worker-g');
    const folder = await mkdtemp(path.join(tmpdir(), 'kumo-checkpoint-'));
    const pieces = new LocalFileGroups(path.join(folder, 'pieces'));
    try {
      const files = {
        store: path.join(folder, 'a', 'crawl.db'),
        spool: path.join(folder, 'a', 'objects.spool'),
        piece: path.join(folder, 'a', 'piece'),
      };
      await restoreRunData({ folder: path.join(folder, 'a'), ...files }, emptySource());
      const crawl = new SqliteRunDataStore(files.store);
      const spool = new ObjectSpool(files.spool);
      crawl.enqueue([
        { fingerprint: Buffer.from('/'), url: '/', depth: 0, referrer: null },
        { fingerprint: Buffer.from('/gone'), url: '/gone', depth: 0, referrer: null },
      ]);
      crawl.commitPage(page(1, '/', ['/a', '/b'], spool, 1));
      const first = readCheckpoint(files, 'g-1', NO_MARKS);
      await pieces.save(runId, 'g-1', files.piece);
      assert.equal(await saveRunCheckpoint(sql, 'worker-g', runId, [first.checkpoint]), true);
      // Then a page, a skip (an entry checkpointed queued, now skipped), and a page not checkpointed.
      crawl.commitPage(page(3, '/a', ['/b', '/c'], spool, 2));
      crawl.skip(2);
      const second = readCheckpoint(files, 'g-2', first.marks);
      assert.deepEqual(
        second.checkpoint.entries.map((entry) => [entry.url, entry.state]),
        [
          ['/gone', 2],
          ['/a', 1],
          ['/c', 0],
        ],
      );
      await pieces.save(runId, 'g-2', files.piece);
      assert.equal(await saveRunCheckpoint(sql, 'worker-g', runId, [second.checkpoint]), true);
      // A retried checkpoint (its answer lost) changes nothing.
      assert.equal(await saveRunCheckpoint(sql, 'worker-g', runId, [second.checkpoint]), true);
      crawl.commitPage(page(4, '/b', [], spool, 3));

      const restored = path.join(folder, 'b');
      const marks = await restoreRunData(
        {
          folder: restored,
          store: path.join(restored, 'crawl.db'),
          spool: path.join(restored, 'objects.spool'),
        },
        {
          entries: () => checkpointEntries(sql, runId),
          rows: () => checkpointRows(sql, runId),
          links: () => checkpointLinks(sql, runId),
          openPiece: (name) => pieces.open(runId, name),
        },
      );
      assert.deepEqual(marks, { entrySeq: 5, marked: 0, rowId: 2, linkId: 4 });
      const copy = new SqliteRunDataStore(path.join(restored, 'crawl.db'));
      const copySpool = new ObjectSpool(path.join(restored, 'objects.spool'));
      try {
        // What was checkpointed, once: the third page is fetched again by the new worker.
        assert.deepEqual([...copy.rows()], [...crawl.rows()].slice(0, 2));
        assert.deepEqual([...copy.links()], [...crawl.links()].slice(0, 4));
        assert.deepEqual(copy.progress(), { crawled: 2, total: 4 });
        assert.deepEqual(
          copy.nextQueued(0, 10).map((entry) => entry.url),
          ['/b', '/c'],
        );
        const pageFiles = [...copy.objects()].map((ref) => copySpool.read(ref.offset, ref.bytes));
        assert.deepEqual(pageFiles, [Buffer.alloc(101, 1), Buffer.alloc(103, 2)]);
      } finally {
        copy.close();
        copySpool.close();
        crawl.close();
        spool.close();
      }
      await leases.dropCheckpoints(runId);
      await pieces.removeAll(runId);
      assert.deepEqual(await collect(checkpointRows(sql, runId)), []);
      await assert.rejects(readFile(path.join(folder, 'pieces', String(runId), 'g-1')), { code: 'ENOENT' });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

test('a checkpoint written batch by batch is whole, or not there at all when the lease went during the upload', async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'kumo-checkpoint-'));
  try {
    const files = {
      store: path.join(folder, 'crawl.db'),
      spool: path.join(folder, 'objects.spool'),
      piece: path.join(folder, 'piece'),
    };
    const crawl = new SqliteRunDataStore(files.store);
    const spool = new ObjectSpool(files.spool);
    crawl.enqueue([{ fingerprint: Buffer.from('/'), url: '/', depth: 0, referrer: null }]);
    crawl.commitPage(page(1, '/', ['/a', '/b', '/c'], spool, 1));
    crawl.commitPage(page(2, '/a', ['/d'], spool, 2));
    crawl.close();
    spool.close();
    const saveWith = async (runId: number, owner: string, beforeCommit: () => Promise<void>) => {
      const reader = new CheckpointReader(files, 'p-1', NO_MARKS);
      try {
        // One entry, row or link a batch: each its own statements, one transaction.
        const saved = await saveRunCheckpoint(sql, owner, runId, reader.batches(1), beforeCommit);
        return { saved, ...reader.result() };
      } finally {
        reader.close();
      }
    };

    const kept = await claimedBy('worker-i');
    let uploaded = false;
    const whole = await saveWith(kept, 'worker-i', async () => {
      uploaded = true;
    });
    assert.equal(whole.saved, true);
    assert.equal(uploaded, true);
    assert.deepEqual(whole.marks, { entrySeq: 5, marked: 2, rowId: 2, linkId: 4 });
    assert.equal(whole.pieceBytes, 101 + 102);
    assert.deepEqual(
      (await collect(checkpointRows(sql, kept))).map((row) => [row.crawlUrl, row.pieceOffset]),
      [
        ['/', 0],
        ['/a', 101],
      ],
    );
    assert.equal((await collect(checkpointLinks(sql, kept))).length, 4);
    assert.equal((await collect(checkpointEntries(sql, kept))).length, 5);

    const gone = await claimedBy('worker-j');
    // Another worker ends the run while the piece uploads: the checkpoint is rolled back.
    const late = await saveWith(gone, 'worker-j', () =>
      store.runs.finish(gone, RunState.stoppedByCancel, T0 + SECOND, [], ''),
    );
    assert.equal(late.saved, false);
    assert.deepEqual(await collect(checkpointRows(sql, gone)), []);
    assert.deepEqual(await collect(checkpointEntries(sql, gone)), []);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

/** A whole checkpoint at once, as the checkpoint thread reads it batch by batch. */
function readCheckpoint(
  files: { store: string; spool: string; piece: string },
  pieceName: string,
  marks: CheckpointMarks,
): { checkpoint: RunCheckpoint; marks: CheckpointMarks } {
  const reader = new CheckpointReader(files, pieceName, marks);
  try {
    const checkpoint: RunCheckpoint = { entries: [], rows: [], links: [] };
    for (const batch of reader.batches(1000)) {
      checkpoint.entries.push(...batch.entries);
      checkpoint.rows.push(...batch.rows);
      checkpoint.links.push(...batch.links);
    }
    return { checkpoint, marks: reader.result().marks };
  } finally {
    reader.close();
  }
}

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const batch of batches) all.push(...batch);
  return all;
}

function emptySource() {
  const none = async function* () {};
  return { entries: none, rows: none, links: none, openPiece: async () => undefined };
}
