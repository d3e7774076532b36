import type postgres from 'postgres';
import type { PgSql } from './pg-connection.js';

/** Tables whose rows may be created with an id the caller chose (imports, pinned demo data). */
export type ChosenIdTable = 'contracts' | 'service_groups' | 'search_services' | 'service_settings';

/**
 * Inserts a row with the id the caller chose, or the next identity when none is given. A chosen
 * id moves the identity past it (SQLite's INTEGER PRIMARY KEY takes max(id) + 1 the same way), with
 * the table locked against other inserts meanwhile. Answers the row's id.
 */
export async function insertWithId(
  sql: PgSql,
  table: ChosenIdTable,
  id: number | undefined,
  insert: (tx: postgres.TransactionSql<{ bigint: number }>, id: number | undefined) => Promise<number>,
): Promise<number> {
  return sql.begin(async (tx) => {
    if (id === undefined) return insert(tx, undefined);
    await tx`LOCK TABLE ${tx(table)} IN SHARE ROW EXCLUSIVE MODE`;
    const inserted = await insert(tx, id);
    await tx`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${tx(table)}))`;
    return inserted;
  });
}
