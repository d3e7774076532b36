/**
 * `npm run golden:search`: writes the answers the current code gives to the golden requests into
 * test/fixtures/search-golden.json (test/support/golden-search.ts), after a change meant to
 * change search answers; the diff of that file shows what changed. Prints which answers differ
 * from the file it replaces.
 */
import { writeFile } from 'node:fs/promises';
import { answerGoldenRequests, GOLDEN_FILE, readGoldenAnswers } from '../test/support/golden-search.js';

const before = await readGoldenAnswers().catch(() => ({}) as Record<string, string>);
const answers = await answerGoldenRequests();
const changed = Object.keys(answers).filter((url) => before[url] !== answers[url]);
await writeFile(GOLDEN_FILE, `${JSON.stringify(answers, null, 1)}\n`);
process.stdout.write(
  `${GOLDEN_FILE}: ${Object.keys(answers).length} answers, ${changed.length} changed\n` +
    changed.map((url) => `  ${url}\n`).join(''),
);
