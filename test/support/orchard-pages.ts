import type { IndexedDocument } from '../../src/search/index.js';

/** Pages of a made-up site for the tests of published generations; `edition` changes every page's text. */
export function orchardPages(from: number, count: number, edition = 'first'): IndexedDocument[] {
  return Array.from({ length: count }, (_, n) => ({
    url: `https://orchard.example/page-${from + n}.html`,
    title: `Orchard page ${from + n}`,
    description: '',
    body: `The ${edition} edition: the orchard grows pear ${from + n} and apple trees, ${'with rows of quince '.repeat(20)}`,
  }));
}
