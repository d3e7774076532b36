/**
 * `npm ci` installs without an engine warning on the Node.js versions the README promises: every
 * package of the lock file accepts the oldest Node.js the project's `engines` field allows (a
 * dependency that needs a newer one is pinned by an `overrides` entry; docs/operations.md,
 * Requirements).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as unknown;

interface LockFile {
  packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
}

test('every locked package accepts the oldest Node.js version the project supports', () => {
  const project = readJson('package.json') as { engines: { node: string } };
  const oldest = semver.minVersion(project.engines.node);
  assert.ok(oldest, `engines.node "${project.engines.node}" names a version`);
  const lock = readJson('package-lock.json') as LockFile;
  const refusing = Object.entries(lock.packages)
    .filter(([name]) => name !== '')
    .flatMap(([name, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range !== undefined && !semver.satisfies(oldest, range, { includePrerelease: true })
        ? [`${name.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants node ${range}`]
        : [];
    });
  assert.deepEqual(refusing, [], `Node.js ${oldest.version} is refused by some packages`);
});
