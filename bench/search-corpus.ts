/**
 * A deterministic corpus for the search benchmark: documents of about 2 KB mixing English words
 * and Japanese sentences, with a few rare terms so that rare and common queries both exist.
 */
import type { IndexedDocument } from '../src/search/indexed-document.js';
import { random } from './bench-site-pages.js';

const ENGLISH = (
  'crawler index search result page content site service document link query engine archive ' +
  'network request response server client browser render market report product support customer ' +
  'news update library research science travel weather culture health finance energy design history'
).split(' ');
const JAPANESE = [
  '検索エンジンは大量のページを収集して索引を作ります。',
  '東京都の天気予報と週間の気温をお知らせします。',
  '京都のお寺と庭園を紹介します。',
  'サイト内検索で目的の情報をすばやく見つけられます。',
  '新しい製品の発表会は来月開催される予定です。',
  'キャプチャツールの使い方を説明します。',
];
/** Terms that occur in about one document in a thousand. */
const RARE = ['zephyrine', 'quillwort', '蒼穹', 'marmoreal'];

export function corpusDocument(index: number): IndexedDocument {
  const next = random(index * 104729 + 7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const title = `${pick(ENGLISH)} ${pick(ENGLISH)} ${pick(JAPANESE).slice(0, 8)}`;
  const parts: string[] = [];
  let length = 0;
  while (length < 2000) {
    const part =
      next() < 0.5 ? Array.from({ length: 12 }, () => pick(ENGLISH)).join(' ') + '.' : pick(JAPANESE);
    parts.push(part);
    length += part.length * (part.charCodeAt(0) > 0x3000 ? 3 : 1);
  }
  if (index % 1000 === 0) parts.push(RARE[(index / 1000) % RARE.length]!);
  return {
    url: `https://bench.example/docs/${index}.html`,
    title,
    description: parts[0]!,
    body: parts.join(' '),
  };
}

/** The query mix: one word, two words, a phrase, Japanese, rare and common terms, OR and exclusion. */
export const QUERY_MIX = [
  'crawler',
  'search engine',
  '"search engine"',
  '検索',
  '京都',
  '東京都 天気',
  'キャプチャ',
  'zephyrine',
  '蒼穹',
  'weather OR finance',
  'browser -render',
  'index',
];
