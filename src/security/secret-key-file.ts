import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { decodeSecretKey, generateSecretKeyText } from './secret-box.js';

/**
 * The key that encrypts stored secrets (webhook secrets, setting passwords): configured
 * (KUMO_SECRET_KEY, 32 bytes as hex or base64), or generated once into the data dir (mode 0600).
 * The file appears whole or not at all (written aside, then linked), so a `kumo admin` and a
 * `kumo serve` starting together on a new data dir cannot end up with two different keys.
 */
export function loadSecretKey(configured: string | undefined, file: string): Buffer {
  if (configured !== undefined) {
    const key = decodeSecretKey(configured);
    if (key === undefined) throw new Error('KUMO_SECRET_KEY: expected 32 bytes as 64 hex digits or base64');
    return key;
  }
  if (!existsSync(file)) {
    const aside = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(aside, `${generateSecretKeyText()}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(aside, { force: true });
    }
  }
  const key = decodeSecretKey(readFileSync(file, 'utf8'));
  if (key === undefined) throw new Error(`${file} does not hold a secret key (64 hex digits)`);
  return key;
}
