import postgres from 'postgres';

/** The connection pool of the PostgreSQL store (postgres.js); BIGINT columns read as numbers. */
export type PgSql = postgres.Sql<{ bigint: number }>;

/** A transaction or the pool: what a statement runs on. */
export type PgQueryable = postgres.Sql<{ bigint: number }> | postgres.TransactionSql<{ bigint: number }>;

export interface PgConnectionOptions {
  /** Connections the pool opens at most (default 10). */
  maxConnections?: number;
}

/** `{1,2,3}`: ids as a BIGINT[] literal, for `= ANY(...::bigint[])`. */
export function bigintArrayLiteral(ids: readonly number[]): string {
  return `{${ids.map(Number).join(',')}}`;
}

/** OID of BIGINT (int8). */
const INT8 = 20;

/**
 * Opens a pool on `url` (`postgres://user:password@host:port/database`, as KUMO_DATABASE_URL).
 * Connections open when first used. Ids and microsecond times are BIGINT; they stay below 2^53,
 * so they are read as JavaScript numbers, as the SQLite store gives them.
 */
export function connectPostgres(url: string, options: PgConnectionOptions = {}): PgSql {
  return postgres(url, {
    max: options.maxConnections ?? 10,
    idle_timeout: 60,
    connect_timeout: 10,
    onnotice: () => {},
    types: {
      bigint: {
        to: INT8,
        from: [INT8],
        serialize: (value: number) => String(value),
        parse: (raw: string) => Number(raw),
      },
    },
  });
}
