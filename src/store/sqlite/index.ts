/**
 * The record store on SQLite. (docs/design/layers.md, Surfaces)
 */
export { openSqliteRecordStore } from './open-record-store.js';
export { openServiceDatabase } from './service-db.js';
