/**
 * The PostgreSQL store: the record store contract, then what only a shared database has to get
 * right (concurrent claims from several connections, migrations by processes starting at once,
 * secrets at rest, a wrong secret key). One server for the file, a database per test.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import postgres from 'postgres';
import { RunState } from '../../src/domain/index.js';
import { SecretKeyMismatchError } from '../../src/security/index.js';
import { connectPostgres } from '../../src/store/postgres/pg-connection.js';
import { migratePostgres, SchemaTooNewError } from '../../src/store/postgres/pg-migrate.js';
import { MIGRATIONS } from '../../src/store/postgres/pg-schema.js';
import { openPostgresRecordStore } from '../../src/store/postgres/open-postgres-record-store.js';
import type { RecordStore } from '../../src/store/record-store.js';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { claimAll, contractIn, describeRecordStoreContract, post } from './record-store-contract.js';

const SECRET_KEY = Buffer.alloc(32, 0x33);
const OTHER_KEY = Buffer.alloc(32, 0x44);

let server: PostgresServer;
before(async () => {
  server = await startPostgresServer();
});
after(() => server.stop());

const open = (url: string, secretKey = SECRET_KEY) => openPostgresRecordStore(url, { secretKey });

/** Raw statements on a database, to look at what the store wrote. */
async function inspect<T>(url: string, read: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await read(sql);
  } finally {
    await sql.end();
  }
}

describeRecordStoreContract('PostgreSQL', async () => open(await server.createDatabase()));

describe('PostgreSQL: several connections at once', () => {
  test('two stores claiming at once never take the same run, and every run is taken', async () => {
    const url = await server.createDatabase();
    const [first, second] = await Promise.all([open(url), open(url)]);
    try {
      const names = new Map<number, string>();
      const tenants = await Promise.all(['a', 'b', 'c', 'd'].map((name) => contractIn(first, name)));
      for (let round = 0; round < 10; round++)
        for (const [index, tenant] of tenants.entries())
          await post(first, tenant, `t${index}-${round}`, names);
      const claimer = async (store: RecordStore) => {
        const taken: number[] = [];
        while ((await store.runs.countByState())[RunState.pending] > 0) {
          const run = await store.runs.claimNextPending(1);
          if (run !== undefined) taken.push(run.id);
        }
        return taken;
      };
      const taken = (
        await Promise.all([claimer(first), claimer(second), claimer(first), claimer(second)])
      ).flat();
      assert.equal(taken.length, names.size, 'each run claimed once');
      assert.deepEqual([...new Set(taken)].sort(), [...names.keys()].sort());
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('dispatchers of two processes claiming by contract at once never take the same one', async () => {
    const url = await server.createDatabase();
    const [first, second] = await Promise.all([open(url), open(url)]);
    try {
      const queued: number[] = [];
      for (const name of ['a', 'b', 'c']) {
        const hook = await first.webhooks.create(
          await contractIn(first, name),
          'https://hooks.example/',
          's',
          1,
        );
        for (let index = 0; index < 10; index++)
          queued.push((await first.deliveries.enqueue(hook.id, 'crawl.finished', `e${index}`, '{}', 1)).id);
      }
      const dispatcher = async (store: RecordStore) => {
        const taken: number[] = [];
        for (;;) {
          const due = await store.deliveries.dueByContract(10, [], 100);
          if (due.length === 0) return taken;
          const batch = await store.deliveries.claim(
            due.map((delivery) => delivery.id),
            10,
            1_000_000,
          );
          taken.push(...batch.map((delivery) => delivery.id));
        }
      };
      const taken = (
        await Promise.all([dispatcher(first), dispatcher(second), dispatcher(first), dispatcher(second)])
      ).flat();
      assert.deepEqual(
        taken.sort((x, y) => x - y),
        queued,
        'each delivery taken once',
      );
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('concurrent claims keep the cap of running runs per contract', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all([open(url), open(url), open(url)]);
    try {
      const names = new Map<number, string>();
      const a = await contractIn(stores[0]!, 'a');
      const b = await contractIn(stores[0]!, 'b');
      for (let index = 0; index < 6; index++) {
        await post(stores[0]!, a, `a${index}`, names);
        await post(stores[0]!, b, `b${index}`, names);
      }
      const policy = { maxRunningPerContract: 2 };
      const claimed = await Promise.all(
        Array.from({ length: 12 }, (_, index) => stores[index % 3]!.runs.claimNextPending(1, policy)),
      );
      assert.ok(claimed.filter((run) => run !== undefined).length <= 4);
      assert.equal((await stores[0]!.runs.countRunning(a.contractId)).ofContract, 2);
      assert.equal((await stores[0]!.runs.countRunning(b.contractId)).ofContract, 2);
      // Whatever a racing claimer passed over is still claimable in the fair order afterwards.
      assert.deepEqual(await claimAll(stores[1]!, names, policy), []);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  test('the turns are kept in the database: a store opened later goes on with them', async () => {
    const url = await server.createDatabase();
    const names = new Map<number, string>();
    const first = await open(url);
    const a = await contractIn(first, 'a');
    const b = await contractIn(first, 'b');
    try {
      await post(first, a, 'a1', names);
      await post(first, a, 'a2', names);
      assert.deepEqual(await claimAll(first, names, { maxRunningPerContract: 1 }), ['a1']);
    } finally {
      await first.close();
    }
    const second = await open(url);
    try {
      await post(second, b, 'b1', names);
      await post(second, b, 'b2', names);
      assert.equal((await second.runs.listRunning()).length, 1);
      assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['b1']);
      for (const run of await second.runs.listRunning())
        await second.runs.finish(run.id, RunState.stopped, 1, [], '');
      assert.deepEqual(await claimAll(second, names, { maxRunningPerContract: 1 }), ['a2', 'b2']);
    } finally {
      await second.close();
    }
  });
});

describe('PostgreSQL: migrations', () => {
  test('migrating again changes nothing; stores opened at once migrate once', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    await Promise.all(stores.map((store) => store.close()));
    const sql = connectPostgres(url);
    try {
      assert.equal(await migratePostgres(sql), MIGRATIONS.length);
      assert.equal(await migratePostgres(sql), MIGRATIONS.length);
    } finally {
      await sql.end();
    }
    const versions = await inspect(
      url,
      (raw) => raw<{ version: number }[]>`SELECT version FROM schema_migrations`,
    );
    assert.deepEqual(
      versions.map((row) => row.version),
      MIGRATIONS.map((_, index) => index + 1),
    );
    const reopened = await open(url);
    try {
      assert.equal(await reopened.ping(), true);
    } finally {
      await reopened.close();
    }
  });

  test('a database migrated by a newer build is refused', async () => {
    const url = await server.createDatabase();
    await (await open(url)).close();
    await inspect(
      url,
      (raw) => raw`INSERT INTO schema_migrations (version, applied_us) VALUES (${MIGRATIONS.length + 1}, 0)`,
    );
    await assert.rejects(open(url), (error: unknown) => {
      assert.ok(error instanceof SchemaTooNewError);
      assert.match(
        error.message,
        new RegExp(`schema version ${MIGRATIONS.length + 1}, newer than this build`),
      );
      return true;
    });
  });
});

describe('PostgreSQL: secrets', () => {
  test('webhook secrets and setting passwords are stored encrypted', async () => {
    const url = await server.createDatabase();
    const store = await open(url);
    try {
      const a = await contractIn(store, 'a');
      await store.webhooks.create(a, 'https://hooks.example/a', 'webhook-plain-secret', 1);
      const setting = {
        seed_urls: ['http://127.0.0.1:9/'],
        authorizations: [
          { type: 'BASIC' as const, url_pattern: '.*', user: 'u', password: 'setting-plain-password' },
        ],
      };
      await store.runs.createInstantRun(a, setting, 1);
      await store.serviceSettings.create(
        a,
        { name: 's', setting, schedule: { interval: 0 }, searchServiceId: null },
        0,
        1,
      );
      const dump = await inspect(url, async (raw) => {
        const rows = await raw<{ text: string }[]>`
          SELECT secret AS text FROM webhooks
          UNION ALL SELECT setting_json FROM crawl_requests
          UNION ALL SELECT setting_json FROM service_settings`;
        return rows.map((row) => row.text).join('\n');
      });
      assert.doesNotMatch(dump, /webhook-plain-secret|setting-plain-password/);
      assert.match(dump, /v1:/);
    } finally {
      await store.close();
    }
  });

  test('a store opened with another secret key is refused before anything is written', async () => {
    const url = await server.createDatabase();
    await (await open(url)).close();
    await assert.rejects(open(url, OTHER_KEY), SecretKeyMismatchError);
    const reopened = await open(url);
    await reopened.close();
  });
});
