/**
 * `node dist/bench/highlight-bench.js`: microseconds per call of the search highlighter on a
 * 20 KB body mixing English, Japanese, full-width and half-width text (and, for scale, a 1 MB
 * ASCII body), so a results page of highlights can be costed.
 */
import { QueryHighlighter, queryTreeOf } from '../src/search/ranking.js';

const ENGLISH = 'search engine crawler index python format page site result content server request'.split(
  ' ',
);
const JAPANESE = [
  '検索エンジンは大量のページを収集して索引を作ります。',
  '東京都の天気予報と週間の気温をお知らせします。',
  'ｷｬﾌﾟﾁｬツールの使い方を説明します。',
  'Ｐｙｔｈｏｎ入門の講座は㍻の頃に始まりました。',
];

/** A fixed pseudo-random sequence, so every run measures the same text. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function body(bytes: number, japanese: boolean): string {
  const next = sequence(7);
  const pieces: string[] = [];
  let length = 0;
  while (length < bytes) {
    const piece =
      !japanese || next() < 0.5
        ? `${Array.from({ length: 10 }, () => ENGLISH[Math.floor(next() * ENGLISH.length)]!).join(' ')}. `
        : JAPANESE[Math.floor(next() * JAPANESE.length)]!;
    pieces.push(piece);
    length += Buffer.byteLength(piece);
  }
  return pieces.join('');
}

function microsPerCall(calls: number, run: () => void): number {
  for (let index = 0; index < Math.min(calls, 200); index += 1) run();
  const started = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) run();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

const mixed = body(20_000, true);
const large = body(1_000_000, false);
const title = `${mixed.slice(0, 120)} Python 検索エンジン ｶﾞｲﾄﾞ`;
const line = (label: string, micros: number) =>
  process.stdout.write(`${label.padEnd(44)}${micros.toFixed(micros < 10 ? 2 : 0).padStart(10)} µs\n`);

process.stdout.write(`highlight bench  mixed body ${mixed.length} chars, large body ${large.length} chars\n`);
for (const query of [
  'python',
  '検索 エンジン',
  '"search engine" 東京都 -crawler',
  'キャプチャ python 平成',
]) {
  const highlighter = QueryHighlighter.of(queryTreeOf(query));
  line(
    `constructor  ${query}`,
    microsPerCall(2000, () => QueryHighlighter.of(queryTreeOf(query))),
  );
  line(
    `parts(title ${title.length} chars)  ${query}`,
    microsPerCall(20_000, () => highlighter.parts(title)),
  );
  line(
    `snippet(20 KB mixed)  ${query}`,
    microsPerCall(500, () => highlighter.snippet(mixed)),
  );
  line(
    `snippet(1 MB ASCII)  ${query}`,
    microsPerCall(10, () => highlighter.snippet(large)),
  );
}
