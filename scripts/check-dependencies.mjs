// `npm run lint:deps` (part of `npm run lint`): the rules of .dependency-cruiser.mjs over src/ and
// the tests, benches and scripts that import it, after checking that every folder of src/ has its place in the layers. Run through
// dependency-cruiser's API, since its command line refuses Node.js 20, which the project supports
// (docs/operations.md, Requirements).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const CONFIG = './.dependency-cruiser.mjs';

const { LAYERS } = await import(pathToFileURL(path.resolve(CONFIG)).href);
const unplaced = readdirSync('src', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.includes(entry.name))
  .map((entry) => `src/${entry.name}`);
if (unplaced.length > 0) {
  process.stdout.write(
    `\n  error layers: ${unplaced.join(', ')} ${unplaced.length === 1 ? 'has' : 'have'} no place in LAYERS ` +
      `of ${CONFIG}: add ${unplaced.length === 1 ? 'it' : 'each'} where its imports put it ` +
      '(docs/design/layers.md, Source layout)\n\n',
  );
  process.exitCode = 1;
}

const options = await extractDepcruiseOptions(CONFIG);
const CRUISED = ['src', 'test', 'bench', 'scripts'].filter((folder) => existsSync(folder));
const result = await cruise(CRUISED, options);
const report = await format(result.output, { outputType: 'err' });
process.stdout.write(report.output);
if (report.exitCode > 0) process.exitCode = 1;
