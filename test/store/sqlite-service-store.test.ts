/**
 * The embedded SQLite store against the service store contract: the same cases the PostgreSQL
 * store passes, a new database file per case.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { openSqliteServiceStore } from '../../src/store/sqlite/open-service-store.js';
import { describeServiceStoreContract } from './service-store-contract.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-sqlite-contract-'));
after(() => rmSync(folder, { recursive: true, force: true }));

let opened = 0;
describeServiceStoreContract('SQLite', async () =>
  openSqliteServiceStore(path.join(folder, `store-${++opened}.db`), { secretKey: Buffer.alloc(32, 0x33) }),
);
