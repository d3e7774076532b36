/**
 * The dependency rules of .dependency-cruiser.mjs (docs/design/layers.md, Source layout), run by
 * `npm run lint` in CI: src/ and the tests, benches and scripts that import it keep them, and each
 * rule refuses the import it is about, shown on a small tree of files that break them one by one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cruise, type IReporterOutput } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tree = mkdtempSync(path.join(os.tmpdir(), 'kumo-dependency-rules-'));
after(() => rmSync(tree, { recursive: true, force: true }));

test('src keeps the dependency rules', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/check-dependencies.mjs'], {
    cwd: root,
  });
  assert.match(stdout, /no dependency violations found/);
});

test('each rule refuses the import it is about', async () => {
  const files: Record<string, string> = {
    'src/api/app.ts': 'export const app = 1;',
    'src/store/sqlite/open.ts': 'export const open = 1;',
    'src/usecases/management/index.ts': "export { operation } from './operation.js';",
    'src/usecases/management/operation.ts': 'export const operation = 1;',
    // A use case reaching up into an adapter, and down into the concrete store.
    'src/usecases/reaches-up.ts': "import { app } from '../api/app.js';\nexport const up = app;",
    'src/usecases/opens-sqlite.ts':
      "import { open } from '../store/sqlite/open.js';\nexport const db = open;",
    // An adapter choosing the store, and one reaching past the management layer's index and the
    // use cases' surface.
    'src/api/opens-sqlite.ts': "import { open } from '../store/sqlite/open.js';\nexport const db = open;",
    'src/cli/past-index.ts':
      "import { operation } from '../usecases/management/operation.js';\nexport const op = operation;",
    'src/usecases/index.ts': "export { operation } from './management/index.js';",
    'src/cli/through-index.ts':
      "import { operation } from '../usecases/index.js';\nexport const op = operation;",
    // A test reaching into another folder's files, and one reaching into its own folder's.
    'test/api/reaches-in.test.ts':
      "import { open } from '../../src/store/sqlite/open.js';\nexport const db = open;",
    'test/store/own-folder.test.ts':
      "import { open } from '../../src/store/sqlite/open.js';\nexport const db = open;",
    // Two files of one folder importing each other.
    'src/startup/first.ts': "import { second } from './second.js';\nexport const first = () => second;",
    'src/startup/second.ts': "import { first } from './first.js';\nexport const second = () => first;",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), `${text}\n`);
  }
  const options = await extractDepcruiseOptions(path.join(root, '.dependency-cruiser.mjs'));
  const result: IReporterOutput = await cruise(['src', 'test'], { ...options, baseDir: tree });
  assert.equal(typeof result.output, 'object');
  const output = result.output as Exclude<IReporterOutput['output'], string>;
  const refused = output.summary.violations.map((violation) => `${violation.rule.name}: ${violation.from}`);
  assert.deepEqual([...new Set(refused)].sort(), [
    'concrete-store-in-composition-roots: src/api/opens-sqlite.ts',
    'layer-usecases: src/usecases/reaches-up.ts',
    'management-through-its-index: src/cli/past-index.ts',
    'no-circular: src/startup/first.ts',
    'surface-api: src/usecases/reaches-up.ts',
    'surface-store: src/api/opens-sqlite.ts',
    'surface-store: src/usecases/opens-sqlite.ts',
    'surface-store: test/api/reaches-in.test.ts',
    'surface-usecases: src/cli/past-index.ts',
    'use-cases-without-frameworks: src/usecases/opens-sqlite.ts',
  ]);
});

test('a folder of src missing from the layers fails the check, naming it', async () => {
  const folderTree = mkdtempSync(path.join(os.tmpdir(), 'kumo-dependency-rules-'));
  try {
    copyFileSync(
      path.join(root, '.dependency-cruiser.mjs'),
      path.join(folderTree, '.dependency-cruiser.mjs'),
    );
    mkdirSync(path.join(folderTree, 'src/util'), { recursive: true });
    mkdirSync(path.join(folderTree, 'src/reports'), { recursive: true });
    writeFileSync(path.join(folderTree, 'src/util/clock.ts'), 'export const now = () => 0;\n');
    // No import at all: the folder is found by its name, not by what it imports.
    writeFileSync(path.join(folderTree, 'src/reports/report.ts'), 'export const report = 1;\n');
    const check = promisify(execFile)(process.execPath, [path.join(root, 'scripts/check-dependencies.mjs')], {
      cwd: folderTree,
    });
    const failure = (await check.then(
      () => assert.fail('the check passed with an unplaced folder'),
      (error: unknown) => error,
    )) as { code: number; stdout: string };
    assert.equal(failure.code, 1);
    assert.match(failure.stdout, /error layers: src\/reports has no place in LAYERS/);
  } finally {
    rmSync(folderTree, { recursive: true, force: true });
  }
});
