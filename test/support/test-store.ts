/**
 * The record store of a test. The suite runs twice (package.json `test`): on SQLite, in files of
 * the test's, and on PostgreSQL, where test/postgres-suite.ts starts one server for the run and
 * names it in KUMO_TEST_POSTGRES_URL; each data directory or store then gets a database of its own.
 */
import { openPostgresRecordStore } from '../../src/store/postgres/index.js';
import type { RecordStore } from '../../src/store/index.js';
import { openSqliteRecordStore } from '../../src/store/sqlite/index.js';
import { createDatabaseOn } from './postgres-server.js';

/** The server of the PostgreSQL pass; undefined in the SQLite pass. */
const SERVER_URL = process.env.KUMO_TEST_POSTGRES_URL || undefined;

/** The key a test store seals secrets with when the test gives none (a PostgreSQL store has no file beside it). */
const TEST_SECRET_KEY = Buffer.alloc(32, 0x5a);

/** Which store this pass runs on, for a test's name or a store-specific check. */
export const TEST_STORE_KIND: 'sqlite' | 'postgres' = SERVER_URL === undefined ? 'sqlite' : 'postgres';

const databases = new Map<string, Promise<string>>();
const madeDatabases = new Map<string, string>();

/**
 * The PostgreSQL database of a data directory (made at the first call, the same one at a restart
 * of the service on that directory); undefined in the SQLite pass.
 */
export function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (SERVER_URL === undefined) return Promise.resolve(undefined);
  let made = databases.get(dataDir);
  if (made === undefined) {
    made = createDatabaseOn(SERVER_URL).then((url) => {
      madeDatabases.set(dataDir, url);
      return url;
    });
    databases.set(dataDir, made);
  }
  return made;
}

/**
 * The variables a `kumo` command needs to reach the store of a data directory a test service
 * runs on: its database in the PostgreSQL pass (nothing in the SQLite pass, or for another folder).
 */
export function storeEnvOf(dataDir: string | undefined): NodeJS.ProcessEnv {
  const url = dataDir === undefined ? undefined : madeDatabases.get(dataDir);
  return url === undefined ? {} : { KUMO_DATABASE_URL: url };
}

/** A record store for a test: the SQLite file given, or a new PostgreSQL database in that pass. */
export async function openTestRecordStore(
  sqliteFile: string,
  secretKey: Buffer = TEST_SECRET_KEY,
): Promise<RecordStore> {
  const url = await testDatabaseUrl(sqliteFile);
  return url === undefined
    ? openSqliteRecordStore(sqliteFile, { secretKey })
    : openPostgresRecordStore(url, { secretKey });
}
