/**
 * `kumo admin searchservice` as an operator uses it: create a search service for a tenant,
 * configure its rules from a JSON file (validated, errors naming the field), show and list it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli-runner.js';
import { prepareDataDir } from '../support/prepared-data-dir.js';

let folder: string;
const env = () => ({ KUMO_DATA_DIR: path.join(folder, 'data') });
const admin = (...args: string[]) => runCli(['admin', ...args], 30_000, env());

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-admin-search-'));
  // The store kumo serve makes at its first start, without the demo tenant (kumo admin makes none).
  await prepareDataDir(path.join(folder, 'data'), { demoTenant: false });
});
after(async () => rm(folder, { recursive: true, force: true }));

describe('kumo admin searchservice', () => {
  test('creates a search service in a tenant, configures, shows and lists it', async () => {
    assert.equal((await admin('contract', 'create', '--name', 'acme')).code, 0);
    const group = await admin('servicegroup', 'create', '--contract', '1', '--name', 'web');
    assert.equal(group.code, 0, group.stderr);
    const created = await admin(
      'searchservice',
      'create',
      '--contract',
      '1',
      '--servicegroup',
      '1',
      '--name',
      'docs',
    );
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^search service (\d+) created in contract 1, service group 1$/m);
    const id = /search service (\d+)/.exec(created.stdout)![1]!;

    const rules = {
      categories: [{ name: 'Docs', url_pattern: '/docs/' }],
      drilldowns: [{ url_pattern: '^https://[^/]+/([^/]+)/', path: 'Site\t$1' }],
      allowed_origins: ['https://www.example.com'],
    };
    const file = path.join(folder, 'rules.json');
    await writeFile(file, JSON.stringify(rules));
    const configured = await admin('searchservice', 'configure', id, '--config', file);
    assert.equal(configured.code, 0, configured.stderr);
    const shown = await admin('searchservice', 'show', id);
    assert.deepEqual(JSON.parse(shown.stdout), rules);
    const listed = await admin('searchservice', 'list', '--contract', '1');
    assert.match(listed.stdout, new RegExp(`^${id}\\t1\\t1\\tdocs\\t1\\t1\\t1$`, 'm'));
  });

  test('a bad configuration is refused, naming each bad field, and the old one is kept', async () => {
    const file = path.join(folder, 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ categories: [{ name: 'X', url_pattern: '(' }], allowed_origins: ['not an origin'] }),
    );
    const refused = await admin('searchservice', 'configure', '1', '--config', file);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /categories\[0\]\.url_pattern: is not a valid regular expression/);
    assert.match(refused.stderr, /allowed_origins\[0\]: "not an origin" is not an origin/);
    await writeFile(file, '{"categorie": []}');
    const typo = await admin('searchservice', 'configure', '1', '--config', file);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /categorie/);
    await writeFile(file, '{ not json');
    const broken = await admin('searchservice', 'configure', '1', '--config', file);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /cannot read .* as JSON/);
    const shown = await admin('searchservice', 'show', '1');
    assert.equal(JSON.parse(shown.stdout).categories[0].name, 'Docs');
  });

  test('synonyms are configured from the file, and a bad list is refused naming the member', async () => {
    const file = path.join(folder, 'synonyms.json');
    const config = {
      synonyms: {
        starter_set: true,
        groups: [['仮想ホスト', 'バーチャルホスト']],
        rules: [{ from: 'pg', to: ['postgresql'] }],
      },
    };
    await writeFile(file, JSON.stringify(config));
    const configured = await admin('searchservice', 'configure', '1', '--config', file);
    assert.equal(configured.code, 0, configured.stderr);
    assert.deepEqual(JSON.parse((await admin('searchservice', 'show', '1')).stdout), config);
    await writeFile(file, JSON.stringify({ synonyms: { groups: [['Email', 'ＥＭＡＩＬ']] } }));
    const refused = await admin('searchservice', 'configure', '1', '--config', file);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /synonyms\.groups\[0\]\[1\]: is "Email" again/);
  });

  test('unknown services and tenants are usage errors', async () => {
    const missing = await admin('searchservice', 'show', '42');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no search service 42/);
    const noGroup = await admin(
      'searchservice',
      'create',
      '--contract',
      '1',
      '--servicegroup',
      '9',
      '--name',
      'x',
    );
    assert.equal(noGroup.code, 2);
    assert.match(noGroup.stderr, /no service group 9 in contract 1/);
  });
});
