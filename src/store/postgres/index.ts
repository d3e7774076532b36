/**
 * The record store on PostgreSQL, and the parts a run's threads use on their own connection.
 * Loaded only when a database server is configured. (docs/design/layers.md, Surfaces)
 */
export { type CrawlingLockMode, openPostgresRecordStore } from './open-postgres-record-store.js';
export { connectPostgres, type PgSql } from './pg-connection.js';
export { PgHostTenures } from './pg-host-tenures.js';
export { migratePostgres } from './pg-migrate.js';
export { checkpointEntries, checkpointLinks, checkpointRows, saveRunCheckpoint } from './pg-run-leases.js';
