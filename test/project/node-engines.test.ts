/**
 * `npm ci` installs without an engine warning on the Node.js versions the README promises (20, and
 * the long-term support lines 22 and 24): every package of the lock file accepts the oldest release
 * of each line the project's `engines` field allows (a
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

/** The oldest release of each Node.js line `engines.node` allows, one per `||` alternative. */
function oldestOfEachLine(range: string): semver.SemVer[] {
  return range.split('||').map((alternative) => {
    const oldest = semver.minVersion(alternative.trim());
    assert.ok(oldest, `engines.node alternative "${alternative.trim()}" names a version`);
    return oldest;
  });
}

test('the project supports Node.js 20 and the current long-term support lines, 22 and 24', () => {
  const project = readJson('package.json') as { engines: { node: string } };
  assert.deepEqual(
    oldestOfEachLine(project.engines.node).map((version) => version.major),
    [20, 22, 24],
  );
});

test('every locked package accepts the oldest release of each Node.js line the project supports', () => {
  const project = readJson('package.json') as { engines: { node: string } };
  const lock = readJson('package-lock.json') as LockFile;
  for (const oldest of oldestOfEachLine(project.engines.node)) {
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range !== undefined && !semver.satisfies(oldest, range, { includePrerelease: true })
          ? [`${name.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants node ${range}`]
          : [];
      });
    assert.deepEqual(refusing, [], `Node.js ${oldest.version} is refused by some packages`);
  }
});
