/**
 * `npm run bench:regex`: the figures behind the engine of the URL patterns
 * (docs/design/url-patterns.md, URL patterns). For three linear-time engines with RE2 semantics
 * (re2, native bindings; re2-wasm; re2js, pure JavaScript) it prints the compile time of each
 * pattern and the time of one match on ordinary URL patterns, then on the four patterns that made
 * JavaScript's backtracking engine run for seconds to hours, at the input length that did it and
 * ten times longer. JavaScript's RegExp is measured on the ordinary patterns for reference, and on
 * the first attack only at small sizes (its time doubles with each added character).
 *
 * Knobs: BENCH_ROUNDS (20000): matches per pattern and URL on ordinary patterns.
 */
import RE2 from 're2';
import { RE2 as Re2Wasm } from 're2-wasm';
import { RE2JS } from 're2js';

interface Engine {
  name: string;
  compile(pattern: string): { test(input: string): boolean };
}

const ENGINES: Engine[] = [
  { name: 're2 (native)', compile: (pattern) => new RE2(pattern, 'u') },
  { name: 're2-wasm', compile: (pattern) => new Re2Wasm(pattern, 'u') },
  { name: 're2js', compile: (pattern) => RE2JS.compile(pattern) },
];
const JAVASCRIPT: Engine = { name: 'JS RegExp', compile: (pattern) => new RegExp(pattern) };

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20_000);

/** Allow / deny / credential / category patterns as tenants write them. */
const ORDINARY_PATTERNS = [
  '^https?://(www\\.)?example\\.com/',
  '\\.(pdf|zip|exe)$',
  '/news/\\d{4}/\\d{2}/',
  '^https://[^/]+/docs/([a-z0-9-]+)/',
  '[?&](page|sort)=\\d+',
  '^https://([a-z0-9-]+\\.)*example\\.com/(en|ja)/.*\\.html$',
  '/(login|logout|cart)(/|$)',
  '.*\\.html?$',
];
const URLS = [
  'https://www.example.com/',
  'https://www.example.com/docs/getting-started/install.html',
  'https://shop.example.com/list?page=12&sort=price',
  'https://example.com/news/2024/05/a-long-story-title-with-words',
  'https://blog.example.org/2023/12/31/year-end?utm_source=feed&utm_medium=rss',
  `https://example.com/search?q=${'term+'.repeat(30)}end`,
];

/** The four attack patterns of docs/design/url-patterns.md, URL patterns, each with its bad input.
 */
const ATTACKS: { name: string; pattern: string; input: (scale: number) => string }[] = [
  {
    name: '^(a?){28}a{28}$ written out',
    pattern: `^${'a?'.repeat(28)}${'a'.repeat(28)}$`,
    input: (scale) => 'a'.repeat(57 * scale),
  },
  {
    name: '^a{0,10} x40 $',
    pattern: `^${'a{0,10}'.repeat(40)}$`,
    input: (scale) => `${'a'.repeat(400 * scale)}!`,
  },
  {
    name: '^(?:a|b){0,10} x12 !',
    pattern: `^${'(?:a|b){0,10}'.repeat(12)}!`,
    input: (scale) => 'ab'.repeat(60 * scale),
  },
  {
    name: '^a*(?:b|)a*(?:b|)a*!',
    pattern: '^a*(?:b|)a*(?:b|)a*!',
    input: (scale) => 'a'.repeat(3000 * scale),
  },
];

function elapsedMicros(run: () => void): number {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1000;
}

/** Batches timed per figure; the median is reported, as other processes share the machine. */
const BATCHES = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median microseconds of one compile of each pattern (after one warm-up pass), and the slowest pattern's. */
function compileMicros(engine: Engine, patterns: readonly string[]): { mean: number; max: number } {
  for (const pattern of patterns) engine.compile(pattern);
  const times = patterns.map((pattern) =>
    median(Array.from({ length: BATCHES * 3 }, () => elapsedMicros(() => engine.compile(pattern)))),
  );
  return { mean: times.reduce((sum, time) => sum + time, 0) / times.length, max: Math.max(...times) };
}

/**
 * Microseconds of one match of a pattern against an input, over every pattern and input: the
 * median of BATCHES batches of `rounds` rounds, after a warm-up (RE2 builds its DFA as it goes).
 */
function matchMicros(
  engine: Engine,
  patterns: readonly string[],
  inputs: readonly string[],
  rounds: number,
): number {
  const compiled = patterns.map((pattern) => engine.compile(pattern));
  let matches = 0;
  const run = () => {
    // URL by URL, each against every pattern, as a crawl checks the links it finds.
    for (const input of inputs) for (const regex of compiled) if (regex.test(input)) matches += 1;
  };
  for (let round = 0; round < Math.min(rounds, 500); round += 1) run();
  const batches = Array.from({ length: BATCHES }, () =>
    elapsedMicros(() => {
      for (let round = 0; round < rounds; round += 1) run();
    }),
  );
  if (matches < 0) throw new Error('unreachable');
  return median(batches) / rounds / (compiled.length * inputs.length);
}

const format = (micros: number): string =>
  micros >= 1000 ? `${(micros / 1000).toFixed(1)} ms` : `${micros.toFixed(micros < 10 ? 2 : 0)} µs`;
const row = (...cells: string[]): void => {
  const [first = '', ...rest] = cells;
  process.stdout.write(`${first.padEnd(30)}${rest.map((cell) => cell.padStart(16)).join('')}\n`);
};

process.stdout.write(
  `regex bench  node ${process.version}  ${ORDINARY_PATTERNS.length} ordinary patterns x ${URLS.length} URLs, ${ROUNDS} rounds\n\n`,
);
process.stdout.write('Ordinary URL patterns\n');
row('engine', 'compile (mean)', 'compile (max)', 'match');
for (const engine of [...ENGINES, JAVASCRIPT]) {
  const compile = compileMicros(engine, ORDINARY_PATTERNS);
  row(
    engine.name,
    format(compile.mean),
    format(compile.max),
    format(matchMicros(engine, ORDINARY_PATTERNS, URLS, ROUNDS)),
  );
}

for (const attack of ATTACKS) {
  process.stdout.write(`\nAttack ${attack.name}  (pattern ${attack.pattern.length} chars)\n`);
  const short = attack.input(1);
  const long = attack.input(10);
  row('engine', 'compile', `match ${short.length}`, `match ${long.length}`);
  for (const engine of ENGINES) {
    const compile = compileMicros(engine, [attack.pattern]);
    const rounds = Math.max(10, Math.floor(ROUNDS / 100));
    row(
      engine.name,
      format(compile.mean),
      format(matchMicros(engine, [attack.pattern], [short], rounds)),
      format(matchMicros(engine, [attack.pattern], [long], rounds)),
    );
  }
}

// JavaScript's engine on the first attack at sizes where it still ends quickly: each added pair
// of characters doubles the time, so 28 (the attack) takes seconds and 40 would take hours.
process.stdout.write("\nJS RegExp on ^(a?){n}a{n}$ against 2n+1 a's (bounded sizes only)\n");
row('n', 'match');
for (const n of [12, 14, 16, 18]) {
  const pattern = `^${'a?'.repeat(n)}${'a'.repeat(n)}$`;
  row(String(n), format(matchMicros(JAVASCRIPT, [pattern], ['a'.repeat(2 * n + 1)], 1)));
}
