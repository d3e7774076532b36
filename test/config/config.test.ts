import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('configuration', () => {
  it('has a documented default for every setting', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 8080);
    assert.equal(config.dataDir, './data');
    assert.equal(config.publicUrl, 'http://127.0.0.1:8080');
    assert.equal(config.timezone, 'UTC');
    assert.equal(config.workerConcurrency, 2);
    assert.equal(config.artifactRetentionDays, undefined);
    assert.equal(config.allowPrivateNetworks, false);
    assert.equal(config.instantCrawlerBasePath, '/api/v1');
  });

  it('reads the environment and derives the public URL from host and port', () => {
    const config = loadConfig({ KUMO_HOST: '0.0.0.0', KUMO_PORT: '9000', KUMO_TIMEZONE: 'Asia/Tokyo' });
    assert.equal(config.publicUrl, 'http://0.0.0.0:9000');
    assert.equal(config.timezone, 'Asia/Tokyo');
    assert.deepEqual(
      loadConfig({ KUMO_ALLOW_PRIVATE_NETWORKS: '10.0.0.0/8, 192.168.0.0/16' }).allowPrivateNetworks,
      ['10.0.0.0/8', '192.168.0.0/16'],
    );
  });

  it('reads the public URL as a URL parser writes it: scheme and host lower-case', () => {
    const config = loadConfig({ KUMO_PUBLIC_URL: 'HTTPS://Kumo.Example:443/Search/' });
    assert.equal(config.publicUrl, 'https://kumo.example/Search');
    assert.equal(loadConfig({ KUMO_PUBLIC_URL: 'Http://127.0.0.1:8080' }).publicUrl, 'http://127.0.0.1:8080');
  });

  const invalid: [Record<string, string>, RegExp][] = [
    [{ KUMO_PORT: 'eighty' }, /KUMO_PORT: expected an integer/],
    [{ KUMO_PORT: '70000' }, /KUMO_PORT: must be between 0 and 65535/],
    [{ KUMO_TIMEZONE: 'Mars/Base' }, /KUMO_TIMEZONE: unknown IANA time zone/],
    [{ KUMO_PUBLIC_URL: 'ftp://x' }, /KUMO_PUBLIC_URL: expected an absolute http\(s\) URL/],
    [{ KUMO_ARTIFACT_RETENTION_DAYS: '-1' }, /KUMO_ARTIFACT_RETENTION_DAYS: expected a positive number/],
    [
      { KUMO_ALLOW_PRIVATE_NETWORKS: 'sometimes' },
      /KUMO_ALLOW_PRIVATE_NETWORKS: "sometimes" is not a CIDR range/,
    ],
    [{ KUMO_CONFIG_FILE: '/nonexistent/kumo.json' }, /KUMO_CONFIG_FILE: cannot read/],
  ];
  for (const [env, message] of invalid) {
    it(`refuses ${JSON.stringify(env)} naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }
});

describe('roles', () => {
  const cluster = {
    KUMO_DATABASE_URL: 'postgres://kumo@db.internal/kumo',
    KUMO_BLOB_URL: 's3://kumo/prod',
  };
  it('every role by default; all, or any set of roles on a shared database and bucket', () => {
    assert.deepEqual(loadConfig({}).roles, ['api', 'worker', 'scheduler', 'search']);
    assert.deepEqual(loadConfig({ KUMO_ROLES: ' ALL ' }).roles, ['api', 'worker', 'scheduler', 'search']);
    assert.deepEqual(loadConfig({ KUMO_ROLES: 'search,worker,scheduler,api' }).roles, [
      'api',
      'worker',
      'scheduler',
      'search',
    ]);
    assert.deepEqual(loadConfig({ ...cluster, KUMO_ROLES: 'search' }).roles, ['search']);
    assert.deepEqual(loadConfig({ ...cluster, KUMO_ROLES: 'scheduler, worker' }).roles, [
      'worker',
      'scheduler',
    ]);
    assert.deepEqual(
      loadConfig({
        ...cluster,
        KUMO_ROLES: 'api',
        KUMO_ADMIN_TOKEN: 'kumo_admin_token_0123456789abcdef',
        KUMO_SIGNING_SECRET: 'signing-secret-of-the-cluster',
      }).roles,
      ['api'],
    );
  });

  it('refuses an unknown role, an empty list, a cluster process without a database or bucket, and an API process without the shared secrets', () => {
    assert.throws(
      () => loadConfig({ KUMO_ROLES: 'search,indexer' }),
      (error: Error) =>
        error instanceof ConfigError &&
        error.message ===
          'KUMO_ROLES: expected all, or roles among api, worker, scheduler, search separated by commas, got "search,indexer"',
    );
    assert.throws(() => loadConfig({ KUMO_ROLES: ' , ' }), /KUMO_ROLES: expected all, or roles/);
    for (const env of [
      { KUMO_ROLES: 'search' },
      { KUMO_ROLES: 'worker', KUMO_DATABASE_URL: 'postgres://kumo@db.internal/kumo' },
      { KUMO_ROLES: 'scheduler', KUMO_BLOB_URL: 's3://kumo/prod' },
    ])
      assert.throws(
        () => loadConfig(env),
        /KUMO_ROLES: a process of a cluster \((search|worker|scheduler)\) needs KUMO_DATABASE_URL and KUMO_BLOB_URL/,
      );
    assert.throws(
      () => loadConfig({ ...cluster, KUMO_ROLES: 'api,scheduler', KUMO_SIGNING_SECRET: 'signing-secret' }),
      /KUMO_ADMIN_TOKEN: an API process of a cluster \(api,scheduler\) needs it set, the same on every API process/,
    );
    assert.throws(
      () =>
        loadConfig({ ...cluster, KUMO_ROLES: 'api', KUMO_ADMIN_TOKEN: 'kumo_admin_token_0123456789abcdef' }),
      /KUMO_SIGNING_SECRET: an API process of a cluster \(api\) needs it set/,
    );
  });
});
