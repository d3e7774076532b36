/**
 * `kumo serve` on a PostgreSQL database (KUMO_DATABASE_URL): the records live in the database, not
 * the data directory; one server process per database; a database that cannot be used stops the
 * start with the setting named and no password shown (docs/operations.md, PostgreSQL).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { StartupError } from '../../src/startup/startup-error.js';
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const SECRET_KEY = 'ab'.repeat(32);

describe('kumo serve on PostgreSQL', () => {
  let server: PostgresServer;
  let databaseUrl: string;
  let first: TestService | undefined;

  before(async () => {
    server = await startPostgresServer();
    databaseUrl = await server.createDatabase();
  });
  after(async () => {
    await first?.close();
    await server.stop();
  });

  const start = () => startTestService({ overrides: { databaseUrl, secretKey: SECRET_KEY } });

  test('keeps the records in the database: a new data directory finds the tenants and settings', async () => {
    first = await start();
    assert.equal(existsSync(path.join(first.dataDir, 'kumo.db')), false, 'no SQLite store is made');
    const created = await first.inject({
      method: 'POST',
      url: '/admin/v1/contracts',
      headers: { authorization: `Bearer ${'kumo_test_admin_token_0123456789'}` },
      payload: { name: 'shared' },
    });
    assert.equal(created.statusCode, 200, created.body);
    const health = await first.inject({ method: 'GET', url: '/api/v1.0/finder_service/health_check' });
    assert.equal(health.json.components.store.status, 'OK');
    await first.close();
    first = undefined;

    // Another machine's data directory: the same records, through the same database and key.
    first = await start();
    const listed = await first.inject({
      method: 'GET',
      url: '/admin/v1/contracts',
      headers: { authorization: `Bearer ${'kumo_test_admin_token_0123456789'}` },
    });
    assert.deepEqual(
      (listed.json.contracts as { name: string }[]).map((contract) => contract.name),
      ['demo', 'shared'],
    );
  });

  test('a second kumo serve on the same database is refused while the first runs', async () => {
    assert.ok(first, 'the first service runs');
    await assert.rejects(start(), (error: unknown) => {
      assert.ok(error instanceof StartupError);
      assert.match(
        error.message,
        /^KUMO_DATABASE_URL: another kumo serve already crawls with this PostgreSQL database; a process with every role crawls alone/,
      );
      return true;
    });
  });

  test('a database that cannot be used stops the start naming the setting, never the password', async () => {
    const url = new URL(databaseUrl);
    const cases: [string, RegExp][] = [
      [
        `postgres://postgres:s3cret@127.0.0.1:1/kumo`,
        /^KUMO_DATABASE_URL: the PostgreSQL server 127\.0\.0\.1:1 cannot be reached \(ECONNREFUSED\)$/,
      ],
      [
        `postgres://postgres:s3cret@${url.host}/no_such_database`,
        /^KUMO_DATABASE_URL: the PostgreSQL server [\d.]+:\d+ answered: the database does not exist$/,
      ],
    ];
    for (const [badUrl, expected] of cases) {
      await assert.rejects(
        startTestService({ overrides: { databaseUrl: badUrl, secretKey: SECRET_KEY } }),
        (error: unknown) => {
          assert.ok(error instanceof StartupError, String(error));
          assert.match(error.message, expected);
          assert.ok(!error.message.includes('s3cret'));
          return true;
        },
      );
    }
  });
});
