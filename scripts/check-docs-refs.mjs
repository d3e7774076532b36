// Checks the citations of docs pages in comments and docs: every `docs/<page>.md, <Section>` must
// name a page that exists and a heading of it that the text after the comma starts with (run by
// `npm run lint:docs-refs`). A citation without a section only needs its page to exist.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const SOURCES = [
  'src',
  'test',
  'scripts',
  'bench',
  'docs',
  'README.md',
  'CHANGELOG.md',
  '.dependency-cruiser.mjs',
];
const CITATION = /docs\/((?:[\w-]+\/)*[\w-]+\.md)/g;

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', ...SOURCES], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => /\.(ts|tsx|mjs|js|md)$/.test(file) && existsSync(file));

const headingsOf = new Map();
function headings(page) {
  let found = headingsOf.get(page);
  if (found === undefined) {
    found = readFileSync(page, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => comparable(line.replace(/^#+ /, '')));
    headingsOf.set(page, found);
  }
  return found;
}

/** Text as compared: comment prefixes of continued lines, backticks and case left out. */
function comparable(text) {
  return text
    .replace(/\n\s*(\/\/+|\*|#)?\s*/g, ' ')
    .replaceAll('`', '')
    .toLowerCase();
}

const problems = [];
for (const file of tracked) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(CITATION)) {
    const page = `docs/${match[1]}`;
    const line = text.slice(0, match.index).split('\n').length;
    if (!existsSync(page)) {
      problems.push(`${file}:${line}: ${page} does not exist`);
      continue;
    }
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 300);
    // A section follows a comma and starts with a capital letter or a backtick.
    const section = /^, ?(?:\n\s*(?:\/\/+|\*|#)?\s*)?([A-Z`])/.exec(after);
    if (section === null) continue;
    const rest = comparable(after.slice(after.indexOf(section[1])));
    const named = headings(page).some(
      (heading) => rest.startsWith(heading) && !/[\p{L}\p{N}]/u.test(rest.charAt(heading.length)),
    );
    if (!named) problems.push(`${file}:${line}: ${page} has no heading "${rest.slice(0, 60).trim()}…"`);
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error(`${problems.length} citation(s) of docs sections not found`);
  process.exit(1);
}
console.log(`docs citations: ${tracked.length} files checked`);
