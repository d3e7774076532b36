// `npm run lint:deps` (part of `npm run lint`): the rules of .dependency-cruiser.mjs over src/.
// Run through dependency-cruiser's API, since its command line refuses Node.js 20, which the
// project supports (docs/operations.md, Requirements). `--update-known` rewrites the list of
// known violations (cycles older than the rule) from what is there now; `--no-ignore-known`
// reports them too.
import { readFileSync, writeFileSync } from 'node:fs';
import { cruise, format } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const CONFIG = './.dependency-cruiser.mjs';
const KNOWN = '.dependency-cruiser-known-violations.json';
const folders = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const updateKnown = process.argv.includes('--update-known');

const options = await extractDepcruiseOptions(CONFIG);
if (!updateKnown && !process.argv.includes('--no-ignore-known'))
  options.knownViolations = JSON.parse(readFileSync(KNOWN, 'utf8'));
const result = await cruise(folders.length > 0 ? folders : ['src'], options);
if (updateKnown) {
  const known = (await format(result.output, { outputType: 'baseline' })).output;
  writeFileSync(KNOWN, known);
  console.log(`${KNOWN}: ${JSON.parse(known).length} known violation(s)`);
} else {
  const report = await format(result.output, { outputType: 'err' });
  process.stdout.write(report.output);
  process.exitCode = report.exitCode > 0 ? 1 : 0;
}
