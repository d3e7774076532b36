/**
 * Another `kumo serve` holds the database (PostgresRecordStoreOptions.crawlingLock). A module of
 * its own, so the start-up's error reporting knows it without loading the PostgreSQL client.
 */
export class ServerTakenError extends Error {
  override name = 'ServerTakenError';
}
