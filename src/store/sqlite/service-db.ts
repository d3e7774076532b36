import Database from 'better-sqlite3';
import { preparePrivateDatabaseFile } from '../../util/index.js';

/**
 * Ordered schema migrations of the service database; the index + 1 is the `user_version` a
 * database has after applying it. Never edit a shipped migration: append a new one.
 */
type Migration = string | ((db: Database.Database) => void);

/** ALTER TABLE … ADD COLUMN that a migration run again (a downgraded user_version) leaves alone. */
const addColumn =
  (table: string, column: string, type: string): Migration =>
  (db) => {
    const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
    if (!columns.some((existing) => existing.name === column)) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
  };

const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE contracts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_us INTEGER NOT NULL
  );
  CREATE TABLE service_groups (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    name TEXT NOT NULL,
    created_us INTEGER NOT NULL
  );
  CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    servicegroup_id INTEGER NOT NULL REFERENCES service_groups(id),
    key_hash BLOB NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    label TEXT NOT NULL,
    created_us INTEGER NOT NULL,
    revoked_us INTEGER
  );
  CREATE TABLE crawl_requests (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL,
    servicegroup_id INTEGER NOT NULL,
    setting_json TEXT NOT NULL,
    received_us INTEGER NOT NULL,
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL
  );
  CREATE TABLE crawl_runs (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES crawl_requests(id),
    contract_id INTEGER NOT NULL,
    servicegroup_id INTEGER NOT NULL,
    state INTEGER NOT NULL,
    is_cancel_request INTEGER NOT NULL DEFAULT 0,
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL,
    start_us INTEGER,
    end_us INTEGER,
    crawled_count INTEGER NOT NULL DEFAULT 0,
    total_count INTEGER NOT NULL DEFAULT 0,
    artifacts TEXT NOT NULL DEFAULT '',
    artifacts_deleted_us INTEGER,
    message TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX crawl_runs_tenant ON crawl_runs(contract_id, servicegroup_id, created_us);
  CREATE INDEX crawl_runs_state ON crawl_runs(state, id);
  CREATE INDEX crawl_runs_request ON crawl_runs(request_id);
  `,
  `
  CREATE TABLE search_services (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    servicegroup_id INTEGER NOT NULL REFERENCES service_groups(id),
    name TEXT NOT NULL,
    config_json TEXT NOT NULL DEFAULT '{}',
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL
  );
  CREATE INDEX search_services_tenant ON search_services(contract_id, servicegroup_id);
  `,
  `
  CREATE TABLE service_settings (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    servicegroup_id INTEGER NOT NULL REFERENCES service_groups(id),
    search_service_id INTEGER REFERENCES search_services(id),
    name TEXT NOT NULL,
    setting_json TEXT NOT NULL,
    schedule_json TEXT NOT NULL,
    last_slot_us INTEGER NOT NULL,
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL,
    deleted_us INTEGER
  );
  CREATE INDEX service_settings_tenant ON service_settings(contract_id, servicegroup_id);
  ALTER TABLE crawl_runs ADD COLUMN service_setting_id INTEGER REFERENCES service_settings(id);
  ALTER TABLE crawl_runs ADD COLUMN download_key TEXT;
  ALTER TABLE crawl_runs ADD COLUMN trigger TEXT NOT NULL DEFAULT 'api';
  CREATE UNIQUE INDEX crawl_runs_download_key ON crawl_runs(download_key) WHERE download_key IS NOT NULL;
  CREATE INDEX crawl_runs_setting ON crawl_runs(service_setting_id, start_us);
  CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    servicegroup_id INTEGER NOT NULL REFERENCES service_groups(id),
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_us INTEGER NOT NULL,
    deleted_us INTEGER
  );
  CREATE INDEX webhooks_tenant ON webhooks(contract_id, servicegroup_id);
  CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    webhook_id INTEGER NOT NULL REFERENCES webhooks(id),
    event TEXT NOT NULL,
    event_id TEXT NOT NULL,
    body TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    last_error TEXT NOT NULL DEFAULT '',
    next_attempt_us INTEGER,
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL,
    delivered_us INTEGER
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_us);
  CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, id);
  `,
  `
  CREATE TABLE store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // Key prefixes were the first 10 characters, so a key of 10 characters or fewer (a pinned demo
  // key) was stored whole. Now at most 8 characters and at most half of the key: a prefix that
  // was the whole key, or of a key not made by Kumo (whose length is unknown), keeps half of
  // what was stored; one of a generated key (kumo_ and 43 more characters) keeps 8.
  `
  UPDATE api_keys SET prefix = substr(prefix, 1, length(prefix) / 2)
    WHERE length(prefix) < 10 OR substr(prefix, 1, 5) <> 'kumo_';
  UPDATE api_keys SET prefix = substr(prefix, 1, 8) WHERE length(prefix) > 8;
  `,
  // The round-robin state of run claiming (run-claims.ts): the turn number of the latest claim of
  // each service group; a contract's latest turn is the highest of its groups'. IF NOT EXISTS: a
  // database set back to an earlier schema version runs it again.
  `
  CREATE TABLE IF NOT EXISTS run_claim_turns (
    contract_id INTEGER NOT NULL,
    servicegroup_id INTEGER NOT NULL,
    last_turn INTEGER NOT NULL,
    PRIMARY KEY (contract_id, servicegroup_id)
  ) WITHOUT ROWID;
  `,
  // Console accounts, invitations, sessions and the audit log (docs/design/management.md, Accounts
  // and sessions): tokens and session ids are stored as their SHA-256 only. IF NOT EXISTS: a
  // database set back to an earlier schema version runs it again.
  `
  CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_us INTEGER NOT NULL,
    updated_us INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS accounts_contract ON accounts(contract_id);
  CREATE TABLE IF NOT EXISTS invitations (
    id INTEGER PRIMARY KEY,
    contract_id INTEGER NOT NULL REFERENCES contracts(id),
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    created_us INTEGER NOT NULL,
    expires_us INTEGER NOT NULL,
    used_us INTEGER
  );
  CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    id_hash BLOB NOT NULL UNIQUE,
    created_us INTEGER NOT NULL,
    last_seen_us INTEGER NOT NULL,
    expires_us INTEGER NOT NULL,
    revoked_us INTEGER,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
  CREATE TABLE IF NOT EXISTS audit_log (
    id INTEGER PRIMARY KEY,
    at_us INTEGER NOT NULL,
    contract_id INTEGER,
    servicegroup_id INTEGER,
    actor_kind TEXT NOT NULL,
    actor_via TEXT NOT NULL,
    actor_account_id INTEGER,
    actor_email TEXT,
    action TEXT NOT NULL,
    resource TEXT NOT NULL,
    resource_id INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS audit_log_contract ON audit_log(contract_id, id);
  `,
  // When a setting's schedule was paused (docs/api.md, Scheduled crawler); null: it runs.
  addColumn('service_settings', 'paused_us', 'INTEGER'),
  // When an API key last authenticated a request, to the minute (docs/api.md, Management API).
  addColumn('api_keys', 'last_used_us', 'INTEGER'),
  // How long the last attempt of a webhook delivery took, in milliseconds.
  addColumn('webhook_deliveries', 'last_duration_ms', 'INTEGER'),
  // The operator signed in to the console with the admin token (docs/api.md, Operator sessions).
  `
  CREATE TABLE IF NOT EXISTS operator_sessions (
    id INTEGER PRIMARY KEY,
    id_hash BLOB NOT NULL UNIQUE,
    created_us INTEGER NOT NULL,
    last_seen_us INTEGER NOT NULL,
    expires_us INTEGER NOT NULL,
    revoked_us INTEGER,
    user_agent TEXT NOT NULL,
    address TEXT NOT NULL
  );
  `,
  // The fingerprint of the admin token an operator session was made with, so a rotated token
  // ends the sessions of the old one (docs/security.md, Operator sessions).
  addColumn('operator_sessions', 'token_fingerprint', 'BLOB'),
  // The parts of a run's message with their codes and values, as JSON, so a client can say the
  // message in its own language (docs/api.md, Run messages); '' for runs ended before.
  addColumn('crawl_runs', 'message_parts', "TEXT NOT NULL DEFAULT ''"),
  // Why a run ended (docs/reference/run-states.md, End reasons): a finished run with pages still
  // queued says whether its page limit stopped it.
  addColumn('crawl_runs', 'end_reason', 'TEXT'),
];

/** Opens (creating when absent) the service database and brings its schema up to date. */
export function openServiceDatabase(filePath: string): Database.Database {
  preparePrivateDatabaseFile(filePath);
  const db = new Database(filePath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Admin commands may write while `kumo serve` runs: wait for the lock instead of failing.
  db.pragma('busy_timeout = 5000');
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `database ${filePath} has schema version ${current}, newer than this build (${MIGRATIONS.length})`,
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      const migration = MIGRATIONS[version]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
  return db;
}
