/**
 * KUMO_SEARCH_PUBLIC_URL (docs/operations.md, Settings and Roles): where visitors reach site
 * search, read like KUMO_PUBLIC_URL; by default the process's own public address when it has the
 * search role, and none for an API process without it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';

/** What an API process of a cluster needs besides the setting under test. */
const API_PROCESS = {
  KUMO_ROLES: 'api,scheduler',
  KUMO_DATABASE_URL: 'postgres://kumo@db.internal/kumo',
  KUMO_BLOB_URL: 's3://kumo-artifacts/prod',
  KUMO_ADMIN_TOKEN: 'an-admin-token-of-the-cluster-0123456789',
  KUMO_SIGNING_SECRET: 'a-signing-secret-of-the-cluster',
};

test('a process with the search role is reached for search at its own public address by default', () => {
  assert.equal(loadConfig({ KUMO_PORT: '8123' }).searchPublicUrl, 'http://127.0.0.1:8123');
  assert.equal(
    loadConfig({ KUMO_PUBLIC_URL: 'https://kumo.example/' }).searchPublicUrl,
    'https://kumo.example',
  );
  assert.equal(
    loadConfig({ ...API_PROCESS, KUMO_ROLES: 'search', KUMO_PUBLIC_URL: 'https://search.example' })
      .searchPublicUrl,
    'https://search.example',
  );
});

test('an API process without the search role knows no search address unless told', () => {
  assert.equal(loadConfig(API_PROCESS).searchPublicUrl, undefined);
  assert.equal(
    loadConfig({ ...API_PROCESS, KUMO_SEARCH_PUBLIC_URL: 'HTTPS://Search.Example:443/' }).searchPublicUrl,
    'https://search.example',
  );
});

test('a value that is not an absolute http(s) URL stops the start, naming the variable', () => {
  for (const bad of ['search.example', 'ftp://search.example', '/search', ''])
    assert.throws(
      () => loadConfig({ ...API_PROCESS, KUMO_SEARCH_PUBLIC_URL: bad }),
      new RegExp(
        `KUMO_SEARCH_PUBLIC_URL: expected an absolute http\\(s\\) URL, got "${bad.replaceAll('/', '\\/')}"$`,
      ),
    );
});
