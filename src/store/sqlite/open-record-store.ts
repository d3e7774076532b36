import path from 'node:path';
import type Database from 'better-sqlite3';
import { SecretBox, SecretKeyMismatchError, loadSecretKey } from '../../security/index.js';
import type { AccountStore, AuditStore, OperatorSessionStore, SessionStore } from '../account-store.js';
import type {
  ApiKeyStore,
  CrawlRunStore,
  SearchServiceStore,
  ServiceSettingStore,
  RecordStore,
  TenantStore,
  WebhookDeliveryStore,
  WebhookStore,
} from '../record-store.js';
import { openServiceDatabase } from './service-db.js';
import { SqliteAccountStore } from './sqlite-account-store.js';
import { SqliteApiKeyStore } from './sqlite-api-key-store.js';
import { SqliteAuditStore } from './sqlite-audit-store.js';
import { SqliteCrawlRunStore } from './sqlite-crawl-run-store.js';
import { SqliteDeliveryStore } from './sqlite-delivery-store.js';
import { SqliteSearchServiceStore } from './sqlite-search-service-store.js';
import { SqliteServiceSettingStore } from './sqlite-service-setting-store.js';
import { SqliteOperatorSessionStore } from './sqlite-operator-session-store.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { SqliteTenantStore } from './sqlite-tenant-store.js';
import { SqliteWebhookStore } from './sqlite-webhook-store.js';
import { asAsync } from './synchronous-store.js';

export interface RecordStoreOptions {
  /**
   * The key encrypting stored secrets (see loadSecretKey). Default: the `secret-key` file beside
   * the database, generated when absent; a process configured with KUMO_SECRET_KEY must pass it.
   */
  secretKey?: Buffer;
}

/**
 * The embedded RecordStore: one SQLite file. Opening it proves the secret key opens the stored
 * secrets and encrypts the secrets older versions stored in plain text (see prepareSecrets).
 */
export function openSqliteRecordStore(filePath: string, options: RecordStoreOptions = {}): RecordStore {
  const box = new SecretBox(
    options.secretKey ??
      loadSecretKey(undefined, path.join(path.dirname(path.resolve(filePath)), 'secret-key')),
  );
  const db = openServiceDatabase(filePath);
  // Used by the plain-password test of the migration below (src/security/setting-secrets.ts).
  db.function('kumo_is_sealed', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' && SecretBox.isSealed(value) ? 1 : 0,
  );
  const webhooks = new SqliteWebhookStore(db, box);
  const serviceSettings = new SqliteServiceSettingStore(db, box);
  const runs = new SqliteCrawlRunStore(db, box);
  try {
    prepareSecrets(db, box, {
      checkKey: () => {
        webhooks.checkKey();
        serviceSettings.checkKey();
        runs.checkKey();
      },
      sealPlain: () =>
        webhooks.sealPlainSecrets() + serviceSettings.sealPlainPasswords() + runs.sealPlainPasswords(),
    });
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    tenants: asAsync<TenantStore>(new SqliteTenantStore(db)),
    searchServices: asAsync<SearchServiceStore>(new SqliteSearchServiceStore(db)),
    serviceSettings: asAsync<ServiceSettingStore>(serviceSettings),
    webhooks: asAsync<WebhookStore>(webhooks),
    deliveries: asAsync<WebhookDeliveryStore>(new SqliteDeliveryStore(db)),
    apiKeys: asAsync<ApiKeyStore>(new SqliteApiKeyStore(db)),
    runs: asAsync<CrawlRunStore>(runs),
    accounts: asAsync<AccountStore>(new SqliteAccountStore(db)),
    sessions: asAsync<SessionStore>(new SqliteSessionStore(db)),
    operatorSessions: asAsync<OperatorSessionStore>(new SqliteOperatorSessionStore(db)),
    audit: asAsync<AuditStore>(new SqliteAuditStore(db)),
    ping: () => Promise.resolve(db.prepare('SELECT 1 AS one').get() !== undefined),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

/** `store_meta` rows: a value sealed with the key, and the mark of the one-time migration. */
const KEY_CHECK = 'secret_key_check';
const KEY_CHECK_TEXT = 'kumo secret key check';
const SECRETS_SEALED = 'secrets_sealed';

/**
 * Before the store is used: proves the key opens what is stored (a wrong key stops here, before
 * anything is written with it), then encrypts the plain secrets of older versions in one write
 * transaction. The plain text must not survive in the file either: the rewrite zeroes the space
 * the old values leave (secure_delete), and the WAL holding the old pages is emptied.
 *
 * A value sealed with the key is kept in `store_meta`, so a wrong key is refused even before any
 * secret is stored, and the migration is marked done there, so later opens skip its scan of all
 * crawl requests.
 */
function prepareSecrets(
  db: Database.Database,
  box: SecretBox,
  stores: { checkKey(): void; sealPlain(): number },
): void {
  const read = (name: string): string | undefined =>
    db.prepare<[string], string>('SELECT value FROM store_meta WHERE name = ?').pluck().get(name);
  const write = (name: string, value: string) =>
    db.prepare('INSERT OR REPLACE INTO store_meta (name, value) VALUES (?, ?)').run(name, value);
  const checkSealed = (sealed: string) => {
    if (box.open(sealed, 'key-check') !== KEY_CHECK_TEXT)
      throw new SecretKeyMismatchError('the secret key check value is damaged');
  };

  const keyCheck = read(KEY_CHECK);
  if (keyCheck !== undefined) {
    // The check value proves the key, and the migration ran: nothing to scan at this open.
    checkSealed(keyCheck);
    if (read(SECRETS_SEALED) !== undefined) return;
  } else {
    // First open of this version: the secrets already stored (if any are sealed) prove the key.
    stores.checkKey();
  }

  const secureDelete = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  try {
    const sealed = db
      .transaction(() => {
        // Another process may have got here first, with its key.
        const current = read(KEY_CHECK);
        if (current === undefined) write(KEY_CHECK, box.seal(KEY_CHECK_TEXT, 'key-check'));
        else checkSealed(current);
        if (read(SECRETS_SEALED) !== undefined) return 0;
        const count = stores.sealPlain();
        write(SECRETS_SEALED, String(Date.now() * 1000));
        return count;
      })
      .immediate();
    if (sealed > 0) db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.pragma(`secure_delete = ${secureDelete === 1 ? 'ON' : 'OFF'}`);
  }
}
