import { type SecretBox, SecretKeyMismatchError } from '../../security/index.js';
import type { PgSql } from './pg-connection.js';

/** The `store_meta` row holding a known text sealed with the key the store was created with. */
const KEY_CHECK = 'secret_key_check';
const KEY_CHECK_TEXT = 'kumo secret key check';

/**
 * Proves the key is the one that sealed the stored secrets (webhook secrets, setting passwords),
 * before anything is written with it: the first open stores a value sealed with its key, and every
 * later open must open that value (SecretKeyMismatchError otherwise). Processes opening at once
 * agree on one value: the first insert wins and the others check it.
 */
export async function checkSecretKey(sql: PgSql, box: SecretBox): Promise<void> {
  await sql`
    INSERT INTO store_meta (name, value) VALUES (${KEY_CHECK}, ${box.seal(KEY_CHECK_TEXT, 'key-check')})
    ON CONFLICT (name) DO NOTHING`;
  const [row] = await sql<{ value: string }[]>`SELECT value FROM store_meta WHERE name = ${KEY_CHECK}`;
  if (row === undefined || box.open(row.value, 'key-check') !== KEY_CHECK_TEXT)
    throw new SecretKeyMismatchError('the secret key check value is damaged');
}
