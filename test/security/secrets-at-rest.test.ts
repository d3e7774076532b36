/**
 * Secrets at rest in kumo.db: webhook secrets and the Basic passwords of crawler settings (crawl
 * service settings and the copies crawl requests keep) are encrypted, API keys only hashed. Rows
 * of older versions (plain text) are read as they are and encrypted when the store opens; a key
 * that does not open the stored secrets stops the open before anything is written.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import type { InstantCrawlerSetting } from '../../src/domain/schemas.js';
import { SecretBox, SecretKeyMismatchError } from '../../src/security/secret-box.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../../src/usecases/index.js';
import type { RecordStore, TenantRef } from '../../src/store/index.js';
import { openServiceDatabase, openSqliteRecordStore } from '../../src/store/sqlite/index.js';
import { systemClock } from '../../src/util/index.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'kumo-secrets-at-rest-'));
after(() => rmSync(root, { recursive: true, force: true }));

const KEY = Buffer.alloc(32, 0x11);
const OTHER_KEY = Buffer.alloc(32, 0x22);
const WEBHOOK_SECRET = 'whsec-plain-0123456789abcdef';
const PASSWORD = 'open-sesame-4711';
const SETTING: InstantCrawlerSetting = {
  seed_urls: ['http://127.0.0.1:9/'],
  authorizations: [{ type: 'BASIC', user: 'editor', password: PASSWORD }],
};
const SCHEDULE = { interval: 0 } as const;

let serial = 0;
function freshFile(): string {
  const dir = path.join(root, String(++serial));
  return path.join(mkdtempSync(`${dir}-`), 'kumo.db');
}

async function tenantIn(store: RecordStore): Promise<TenantRef> {
  const now = systemClock.nowMicros();
  const contract = await store.tenants.createContract('c', now);
  const group = await store.tenants.createServiceGroup(contract.id, 'g', now);
  return { contractId: contract.id, servicegroupId: group.id };
}

/** Every text cell of the database file's tables, as one string (what a stolen copy shows). */
function everythingStored(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .pluck()
      .all();
    return tables.map((table) => JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

test('webhook secrets and setting passwords are stored encrypted and read back as given', async () => {
  const file = freshFile();
  const store = openSqliteRecordStore(file, { secretKey: KEY });
  const tenant = await tenantIn(store);
  const now = systemClock.nowMicros();
  const webhook = await store.webhooks.create(tenant, 'https://example.com/hook', WEBHOOK_SECRET, now);
  assert.equal(webhook.secret, WEBHOOK_SECRET);
  assert.equal((await store.webhooks.get(webhook.id))?.secret, WEBHOOK_SECRET);
  assert.equal((await store.webhooks.list(tenant))[0]?.secret, WEBHOOK_SECRET);

  const setting = await store.serviceSettings.create(
    tenant,
    { name: 's', setting: SETTING, schedule: SCHEDULE, searchServiceId: null },
    0,
    now,
  );
  assert.deepEqual(setting.setting, SETTING);
  assert.deepEqual((await store.serviceSettings.list(tenant))[0]?.setting, SETTING);
  const changed = { ...SETTING, authorizations: [{ user: 'editor', password: `${PASSWORD}-2` }] };
  await store.serviceSettings.update(
    setting.id,
    { name: 's', setting: changed, schedule: SCHEDULE, searchServiceId: null },
    0,
    now,
  );
  assert.deepEqual((await store.serviceSettings.get(setting.id))?.setting, changed);

  const instant = await store.runs.createInstantRun(tenant, SETTING, now);
  assert.deepEqual(instant.setting, SETTING);
  const scheduled = await store.runs.createScheduledRun(
    { setting: (await store.serviceSettings.get(setting.id))!, downloadKey: 'dk-1', trigger: 'manual' },
    now,
  );
  assert.deepEqual(scheduled?.setting, changed);
  assert.deepEqual(
    (await store.runs.claimNextPending(now))?.setting,
    SETTING,
    'the worker gets the password',
  );

  const apiKey = generateApiKey();
  await store.apiKeys.insert(tenant, hashApiKey(apiKey), apiKeyPrefix(apiKey), 'k', now);
  await store.close();

  const stored = everythingStored(file);
  for (const secret of [WEBHOOK_SECRET, PASSWORD, apiKey]) {
    assert.ok(!stored.includes(secret), `${secret} is not in the database`);
  }
  assert.match(stored, /"password\\":\\"v1:/, 'the passwords are there, sealed');
  const raw = new Database(file, { readonly: true });
  assert.ok(SecretBox.isSealed(raw.prepare<[], string>('SELECT secret FROM webhooks').pluck().get()!));
  raw.close();
  assertNotInFiles(file, [WEBHOOK_SECRET, PASSWORD]);
});

/** The bytes of the database and its WAL (free pages, old row images) hold none of `secrets`. */
function assertNotInFiles(file: string, secrets: string[]): void {
  for (const name of [file, `${file}-wal`]) {
    if (!existsSync(name)) continue;
    const bytes = readFileSync(name).toString('latin1');
    for (const secret of secrets) assert.ok(!bytes.includes(secret), `${secret} in ${path.basename(name)}`);
  }
}

test('rows of an older version are read as plain text and encrypted once when the store opens', async () => {
  const file = freshFile();
  // An older version's database: the same schema, secrets in plain text.
  const legacy = openServiceDatabase(file);
  const now = systemClock.nowMicros();
  legacy.exec(`INSERT INTO contracts (id, name, created_us) VALUES (1, 'c', ${now});
    INSERT INTO service_groups (id, contract_id, name, created_us) VALUES (1, 1, 'g', ${now});`);
  legacy
    .prepare(
      `INSERT INTO webhooks (contract_id, servicegroup_id, url, secret, created_us, deleted_us)
       VALUES (1, 1, 'https://example.com/a', ?, ?, NULL), (1, 1, 'https://example.com/b', 'deleted-secret-0123', ?, ?)`,
    )
    .run(WEBHOOK_SECRET, now, now, now);
  const json = JSON.stringify(SETTING);
  const withoutPassword = JSON.stringify({ seed_urls: ['http://127.0.0.1:9/'], authorizations: null });
  legacy
    .prepare(
      `INSERT INTO service_settings (contract_id, servicegroup_id, name, setting_json, schedule_json,
         last_slot_us, created_us, updated_us) VALUES (1, 1, 's', ?, '{"interval":0}', 0, ?, ?)`,
    )
    .run(json, now, now);
  const request = legacy.prepare(
    `INSERT INTO crawl_requests (contract_id, servicegroup_id, setting_json, received_us, created_us, updated_us)
     VALUES (1, 1, ?, ?, ?, ?)`,
  );
  const withPassword = Number(request.run(json, now, now, now).lastInsertRowid);
  const plainOnly = Number(request.run(withoutPassword, now, now, now).lastInsertRowid);
  legacy
    .prepare(
      `INSERT INTO crawl_runs (request_id, contract_id, servicegroup_id, state, created_us, updated_us)
       VALUES (?, 1, 1, 2030, ?, ?)`,
    )
    .run(withPassword, now, now);
  legacy.close();

  const store = openSqliteRecordStore(file, { secretKey: KEY });
  assert.equal((await store.webhooks.list())[0]?.secret, WEBHOOK_SECRET);
  assert.deepEqual((await store.serviceSettings.list())[0]?.setting, SETTING);
  assert.deepEqual(
    (await store.runs.getByRequest({ contractId: 1, servicegroupId: 1 }, withPassword))?.setting,
    SETTING,
  );
  await store.close();

  const stored = everythingStored(file);
  for (const secret of [WEBHOOK_SECRET, 'deleted-secret-0123', PASSWORD]) {
    assert.ok(!stored.includes(secret), `${secret} is encrypted after the open`);
  }
  assertNotInFiles(file, [WEBHOOK_SECRET, 'deleted-secret-0123', PASSWORD]);
  const raw = new Database(file, { readonly: true });
  const before = raw.prepare('SELECT id, setting_json FROM crawl_requests ORDER BY id').all();
  const webhooksBefore = raw.prepare('SELECT id, secret FROM webhooks ORDER BY id').all();
  assert.equal(
    raw
      .prepare<[number], string>('SELECT setting_json FROM crawl_requests WHERE id = ?')
      .pluck()
      .get(plainOnly),
    withoutPassword,
    'a setting without password is left as it was',
  );
  raw.close();

  // A second open changes nothing: the migration only touches plain values.
  await openSqliteRecordStore(file, { secretKey: KEY }).close();
  const again = new Database(file, { readonly: true });
  assert.deepEqual(again.prepare('SELECT id, setting_json FROM crawl_requests ORDER BY id').all(), before);
  assert.deepEqual(again.prepare('SELECT id, secret FROM webhooks ORDER BY id').all(), webhooksBefore);
  again.close();
});

test('a key that does not open the stored secrets stops the open and changes nothing', async () => {
  const file = freshFile();
  let store = openSqliteRecordStore(file, { secretKey: KEY });
  const tenant = await tenantIn(store);
  await store.serviceSettings.create(
    tenant,
    { name: 's', setting: SETTING, schedule: SCHEDULE, searchServiceId: null },
    0,
    systemClock.nowMicros(),
  );
  await store.close();
  const snapshot = everythingStored(file);
  assert.throws(
    () => openSqliteRecordStore(file, { secretKey: OTHER_KEY }),
    (error: unknown) => {
      assert.ok(error instanceof SecretKeyMismatchError);
      assert.match(error.message, /KUMO_SECRET_KEY/);
      assert.ok(!error.message.includes(PASSWORD));
      return true;
    },
  );
  assert.equal(everythingStored(file), snapshot);

  // The same for a webhook secret alone.
  const second = freshFile();
  store = openSqliteRecordStore(second, { secretKey: KEY });
  await store.webhooks.create(
    await tenantIn(store),
    'https://example.com/hook',
    WEBHOOK_SECRET,
    systemClock.nowMicros(),
  );
  await store.close();
  assert.throws(() => openSqliteRecordStore(second, { secretKey: OTHER_KEY }), SecretKeyMismatchError);
  assert.equal(
    (await openSqliteRecordStore(second, { secretKey: KEY }).webhooks.list())[0]?.secret,
    WEBHOOK_SECRET,
  );
});

test('without a key given, the store uses the secret-key file beside the database', async () => {
  const file = freshFile();
  let store = openSqliteRecordStore(file);
  await store.webhooks.create(
    await tenantIn(store),
    'https://example.com/hook',
    WEBHOOK_SECRET,
    systemClock.nowMicros(),
  );
  await store.close();
  const keyText = readFileSync(path.join(path.dirname(file), 'secret-key'), 'utf8').trim();
  store = openSqliteRecordStore(file, { secretKey: Buffer.from(keyText, 'hex') });
  assert.equal((await store.webhooks.list())[0]?.secret, WEBHOOK_SECRET);
  await store.close();
});

test('a stored setting password that only looks sealed is still the operator’s literal password', async () => {
  const file = freshFile();
  const store = openSqliteRecordStore(file, { secretKey: KEY });
  const lookalike = new SecretBox(OTHER_KEY).seal('x', 'setting-password');
  const setting = { ...SETTING, authorizations: [{ user: 'u', password: lookalike }] };
  const run = await store.runs.createInstantRun(await tenantIn(store), setting, systemClock.nowMicros());
  assert.deepEqual((await store.runs.getRun(run.id))?.setting, setting);
  await store.close();
});

test('a wrong key is refused before any secret exists, and the scan for plain values runs once', async () => {
  const file = freshFile();
  openServiceDatabase(file).close();
  await openSqliteRecordStore(file, { secretKey: KEY }).close();
  const raw = new Database(file);
  const meta = new Map(raw.prepare<[], [string, string]>('SELECT name, value FROM store_meta').raw().all());
  assert.deepEqual([...meta.keys()].sort(), ['secret_key_check', 'secrets_sealed']);
  assert.ok(SecretBox.isSealed(meta.get('secret_key_check')!));
  // A later open does not scan again: a plain value slipped in behind its back stays as it is.
  const now = systemClock.nowMicros();
  raw.exec(`INSERT INTO contracts (id, name, created_us) VALUES (1, 'c', ${now});
    INSERT INTO service_groups (id, contract_id, name, created_us) VALUES (1, 1, 'g', ${now});`);
  raw
    .prepare(
      `INSERT INTO webhooks (contract_id, servicegroup_id, url, secret, created_us) VALUES (1, 1, 'https://e.com/', ?, ?)`,
    )
    .run(WEBHOOK_SECRET, now);
  raw.close();
  const store = openSqliteRecordStore(file, { secretKey: KEY });
  assert.equal((await store.webhooks.list())[0]?.secret, WEBHOOK_SECRET, 'read as plain text');
  await store.close();
  const after = new Database(file, { readonly: true });
  assert.equal(after.prepare<[], string>('SELECT secret FROM webhooks').pluck().get(), WEBHOOK_SECRET);
  after.close();

  // No sealed secret is stored, and still another key is refused.
  assert.throws(() => openSqliteRecordStore(file, { secretKey: OTHER_KEY }), SecretKeyMismatchError);
});
