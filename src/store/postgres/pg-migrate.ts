import { MIGRATIONS } from './pg-schema.js';
import type { PgSql } from './pg-connection.js';

/** The database was migrated by a newer build: this one would misread it. */
export class SchemaTooNewError extends Error {
  override name = 'SchemaTooNewError';
}

/**
 * Brings the schema up to date, in one transaction holding an advisory lock: processes starting at
 * once wait for the first, then find its versions recorded and apply nothing. A database whose
 * version is newer than this build's migrations is refused. Answers the version reached.
 */
export async function migratePostgres(
  sql: PgSql,
  migrations: readonly string[] = MIGRATIONS,
): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtextextended('kumo.schema_migrations', 0))`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      applied_us BIGINT NOT NULL
    )`;
    const [row] = await tx<
      { version: number }[]
    >`SELECT coalesce(max(version), 0) AS version FROM schema_migrations`;
    const current = row?.version ?? 0;
    if (current > migrations.length) {
      throw new SchemaTooNewError(
        `the database has schema version ${current}, newer than this build (${migrations.length}): ` +
          'run a build at least as new as the one that migrated it',
      );
    }
    for (let version = current; version < migrations.length; version++) {
      await tx.unsafe(migrations[version]!);
      await tx`INSERT INTO schema_migrations (version, applied_us) VALUES (${version + 1}, ${Date.now() * 1000})`;
    }
    return migrations.length;
  });
}
