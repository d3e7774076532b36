/** KUMO_DATABASE_URL (docs/operations.md, PostgreSQL). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('the database setting', () => {
  it('keeps the records in SQLite by default, and in PostgreSQL when a URL is given', () => {
    assert.equal(loadConfig({}).databaseUrl, undefined);
    assert.equal(loadConfig({ KUMO_DATABASE_URL: '  ' }).databaseUrl, undefined);
    for (const url of ['postgres://kumo:pw@db.internal:5433/kumo', 'postgresql://db/kumo?sslmode=require'])
      assert.equal(loadConfig({ KUMO_DATABASE_URL: url }).databaseUrl, url);
  });

  const invalid: [string, RegExp][] = [
    [
      'mysql://kumo:s3cret@db/kumo',
      /^KUMO_DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL, got the scheme "mysql"$/,
    ],
    ['kumo:s3cret@db/kumo', /^KUMO_DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL/],
    ['not a url s3cret', /^KUMO_DATABASE_URL: expected postgres:\/\/user:password@host:port\/database$/],
    ['postgres://kumo:s3cret@db', /^KUMO_DATABASE_URL: the database name is missing/],
    ['postgres://kumo:s3cret@db/', /^KUMO_DATABASE_URL: the database name is missing/],
  ];
  for (const [value, expected] of invalid) {
    it(`refuses ${value.replace('s3cret', '***')} naming the variable, never the password`, () => {
      assert.throws(
        () => loadConfig({ KUMO_DATABASE_URL: value }),
        (error: unknown) =>
          error instanceof ConfigError && expected.test(error.message) && !error.message.includes('s3cret'),
      );
    });
  }
});
