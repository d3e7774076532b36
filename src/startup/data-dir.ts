import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../config/index.js';
import { PRIVATE_FOLDER_MODE, tightenTree } from '../util/index.js';

/** The data directory's layout (src/config/data-paths.ts), for the callers of this module. */
export { dataPaths, searchIndexFile } from '../config/index.js';

/**
 * Creates the data directory's folders (mode 0700) and takes group and other access away from
 * what an older version left there (docs/operations.md, Data directory).
 */
export function ensureDataDir(dataDir: string): ReturnType<typeof dataPaths> {
  const paths = dataPaths(dataDir);
  // The folders above the data directory keep the usual mode; the data directory's own are private.
  mkdirSync(path.dirname(paths.root), { recursive: true });
  for (const folder of [paths.root, paths.artifacts, paths.work, paths.search]) {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  }
  tightenTree(paths.root);
  return paths;
}

/** The signing secret: configured, or generated once and kept (mode 0600) in the data dir. */
export function loadSigningSecret(configured: string | undefined, file: string): string {
  if (configured !== undefined) return configured;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The key that encrypts stored secrets: KUMO_SECRET_KEY, or `<data>/secret-key` (see there). */
export { loadSecretKey } from '../security/index.js';

/**
 * The management API token: configured (KUMO_ADMIN_TOKEN), kept in the data dir, or new. A new
 * token (`created`) is not written yet: the caller keeps it with saveAdminToken and prints it
 * once the server listens, so a start that fails before leaves no token nobody was shown
 * (docs/operations.md, First start).
 */
export function loadAdminToken(
  configured: string | undefined,
  file: string,
): { token: string; created: boolean } {
  if (configured !== undefined) return { token: configured, created: false };
  if (existsSync(file)) return { token: readFileSync(file, 'utf8').trim(), created: false };
  return { token: `kumo_admin_${randomBytes(24).toString('base64url')}`, created: true };
}

/** Keeps a new management API token (mode 0600) for the next starts. */
export function saveAdminToken(file: string, token: string): void {
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
}

/** One `kumo serve` per data directory (see there). */
export { acquireServeLock } from './serve-lock.js';
