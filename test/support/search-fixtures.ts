/**
 * A site search corpus with known answers (Japanese and English pages, every document type, two
 * hosts), a way to write it straight into a search service's index file, the answer shapes of the
 * site search API, and a small HTTP client that talks to the service over real sockets.
 */
import { Agent, fetch as undiciFetch } from 'undici';
import type { IndexedDocument } from '../../src/search/index.js';
import { SearchIndex } from '../../src/search/local-index.js';
import { searchIndexFile } from '../../src/config/index.js';

export const FINDER_BASE = '/api/v1.0/finder_service';
export const HOST = 'https://www.example.com';
export const BLOG_HOST = 'https://blog.example.org';
/** Appended to every body: a word of every document, which is significant for no query. */
export const COMMON_WORD = 'sitewide';

/** `<doc_path>` under the finder base (docs/reference/site-search.md, Site search API). */
export function docPath(serviceId = 1, contractId = 1, servicegroupId = 1): string {
  return `${FINDER_BASE}/documents/${contractId}/${servicegroupId}/${serviceId}`;
}

const FILLER = 'lorem ipsum dolor sit amet consectetur adipiscing elit. ';
/** Filler before the one occurrence of the rare word in the long page. */
export const LONG_PAGE_LEAD = FILLER.repeat(60);
export const RARE_WORD = 'needlework';

const page = (document: IndexedDocument): IndexedDocument => ({
  ...document,
  body: `${document.body} ${COMMON_WORD}`,
});

/** The corpus, by name. Last-modified times are distinct so date sorts have one answer. */
export const DOCS = {
  kyoto: page({
    url: `${HOST}/travel/kyoto.html`,
    title: '京都の観光案内',
    description: '',
    body: '京都は古い都です。京都のお寺と庭園を歩いて巡ります。',
    lastModified: 1_700_000_100,
  }),
  tokyo: page({
    url: `${HOST}/travel/tokyo.html`,
    title: '東京都の美術館',
    description: '',
    body: '東京都には多くの美術館があります。',
    lastModified: 1_700_000_200,
  }),
  capture: page({
    url: `${HOST}/tools/capture.html`,
    title: '便利な道具',
    description: '',
    body: 'キャプチャツールの使い方を説明します。',
    lastModified: 1_700_000_300,
  }),
  fulltext: page({
    url: `${HOST}/docs/engine/fulltext.html`,
    title: '全文検索エンジン入門',
    description: '',
    body: '全文検索エンジンの仕組みを説明します。',
    lastModified: 1_700_000_400,
  }),
  siteSearchGuide: page({
    url: `${HOST}/support/search-guide.html`,
    title: 'サイト内検索の使い方',
    description: '',
    body: 'サイト内検索で目的のページを探せます。',
    lastModified: 1_700_000_500,
  }),
  kanaHalf: page({
    url: `${HOST}/kana/halfwidth.html`,
    title: 'ｶﾀｶﾅ入力のコツ',
    description: '',
    body: 'ｶﾀｶﾅを半角で入力する方法。',
    lastModified: 1_700_000_600,
  }),
  kanaFull: page({
    url: `${HOST}/kana/fullwidth.html`,
    title: 'カタカナ語の辞典',
    description: '',
    body: 'カタカナ語の意味を調べる辞典です。',
    lastModified: 1_700_000_700,
  }),
  pyTutorial: page({
    url: `${HOST}/docs/python/tutorial.html`,
    title: 'Python Tutorial',
    description: 'Learn Python step by step.',
    body: 'This tutorial teaches python from the start: variables, functions, typing and testing.',
    lastModified: 1_710_000_000,
  }),
  pyTyping: page({
    url: `${HOST}/docs/python/typing.html`,
    title: 'Python typing guide',
    description: '',
    body: 'Type hints in python: typing generics, protocols and testing with mypy.',
    lastModified: 1_720_000_000,
  }),
  pyRelease: page({
    url: `${HOST}/news/2024/python-release.html`,
    title: 'Python 3.13 released',
    description: '',
    body: 'The new python release brings a faster interpreter and better error messages.',
    lastModified: 1_730_000_000,
  }),
  pySnake: page({
    url: `${HOST}/pets/snake.html`,
    title: 'Python snake care',
    description: '',
    body: 'The ball python is a calm snake. Feed your python snake once a week.',
    lastModified: 1_690_000_000,
  }),
  pyFullwidth: page({
    url: `${HOST}/docs/fullwidth.html`,
    title: 'ＰＹＴＨＯＮ　ガイド',
    description: '',
    body: 'ＰＹＴＨＯＮで書かれたスクリプトの例。',
    lastModified: 1_705_000_000,
  }),
  pyBlog: page({
    url: `${BLOG_HOST}/posts/2023/python-tips.html`,
    title: 'Python tips from the blog',
    description: '',
    body: 'Ten small python tips for cleaner code.',
    lastModified: 1_700_500_000,
  }),
  // The same number of tokens in every field, so only the distance of the two words differs.
  phraseNear: page({
    url: `${HOST}/blog/indexing.html`,
    title: 'Indexing notes',
    description: '',
    body: 'Every search engine reads each page and then builds an index quickly.',
    lastModified: 1_700_000_800,
  }),
  phraseApart: page({
    url: `${HOST}/blog/garage.html`,
    title: 'Garage notes',
    description: '',
    body: 'Every search of the garage found an old engine and rusty tools.',
    lastModified: 1_700_000_900,
  }),
  quarterlyPdf: page({
    url: `${HOST}/files/quarterly-manual.pdf`,
    title: 'Quarterly manual',
    description: '',
    body: 'The quarterly operations manual in PDF form.',
    lastModified: 1_700_001_000,
    doctype: 'pdf',
    contentSize: 123_456,
  }),
  quarterlyDoc: page({
    url: `${HOST}/files/quarterly-report.doc`,
    title: 'Quarterly report',
    description: '',
    body: 'Quarterly report written in Word.',
    lastModified: 1_700_001_100,
    doctype: 'doc',
  }),
  quarterlyXls: page({
    url: `${HOST}/files/quarterly-budget.xls`,
    title: 'Quarterly budget',
    description: '',
    body: 'Quarterly budget spreadsheet.',
    lastModified: 1_700_001_200,
    doctype: 'xls',
  }),
  quarterlyHtml: page({
    url: `${HOST}/news/quarterly.html`,
    title: 'Quarterly news',
    description: 'Results of the quarter.',
    body: 'Quarterly results were announced today.',
    lastModified: 1_700_001_300,
  }),
  longPage: page({
    url: `${HOST}/docs/long.html`,
    title: 'A long page',
    description: '',
    body: `${LONG_PAGE_LEAD}The rare word ${RARE_WORD} appears only here. ${FILLER.repeat(10)}`,
    lastModified: 1_700_001_400,
  }),
  scriptTitle: page({
    url: `${HOST}/news/script.html`,
    title: 'Escaping </script> in titles',
    description: '',
    body: 'Escaping markup in JSON answers.',
    lastModified: 1_700_001_500,
  }),
} satisfies Record<string, IndexedDocument>;

export type DocName = keyof typeof DOCS;

/** The pages that contain the word python in some form (ＰＹＴＨＯＮ included). */
export const PYTHON_DOCS: readonly DocName[] = [
  'pyTutorial',
  'pyTyping',
  'pyRelease',
  'pySnake',
  'pyFullwidth',
  'pyBlog',
];

export function urlOf(name: DocName): string {
  return DOCS[name].url;
}

export function nameOfUrl(url: string): DocName {
  const found = (Object.keys(DOCS) as DocName[]).find((name) => DOCS[name].url === url);
  if (found === undefined) throw new Error(`not a corpus URL: ${url}`);
  return found;
}

/** Writes documents into a search service's index file through a connection of its own. */
export function seedSearchIndex(
  dataDir: string,
  serviceId: number,
  documents: readonly IndexedDocument[] = Object.values(DOCS),
): void {
  const index = new SearchIndex(searchIndexFile(dataDir, serviceId));
  try {
    index.writer.upsert(documents, 'bundle:fixtures');
  } finally {
    index.close();
  }
}

// Answer shapes of the site search API (docs/reference/site-search.md, Search, Suggest, Related
// keywords).

export interface HighlightPartView {
  is_highlighted: boolean;
  text: string;
}

export interface OrganicDocView {
  ranking: number;
  url: string;
  title: string;
  description: string;
  start_text: string;
  highlight: {
    url_parts: HighlightPartView[];
    title_parts: HighlightPartView[];
    description_parts: HighlightPartView[];
    document_text_parts: HighlightPartView[];
  };
  content_size: number;
  last_modified: number;
  drilldown: string[];
  doctype: string;
}

export interface DrilldownNodeView {
  depth: number;
  title: string;
  path: string;
  count: number;
  is_selected: boolean;
  is_opened: boolean;
  children?: DrilldownNodeView[];
}

export interface DrilldownRootView {
  is_selected: boolean;
  is_opened: boolean;
  facet_drilldowns: DrilldownNodeView[];
}

export interface SearchAnswer {
  parameter: {
    q: string;
    input_encoding: string;
    page_number: number;
    number_per_page: number;
    sort_by: string[];
    category: string;
    drilldown: string[];
    doctype: string[];
  };
  organic: { hits: number; range_min: number; range_max: number; docs: OrganicDocView[] };
  category: { items: string[]; selected: string[] };
  facet_drilldown_roots: DrilldownRootView[];
  spellcheck: { main_phrase: string };
}

export interface SuggestAnswer {
  suggestions: { word: string; point: number }[];
}

export interface RelatedKeywordsAnswer {
  related_keywords: { word: string }[];
}

export interface NgAnswer {
  status: string;
  message: string;
  errors?: { field: string; reason: string }[];
}

/** The highlighted texts of some parts, in order. */
export function highlighted(parts: readonly HighlightPartView[]): string[] {
  return parts.filter((part) => part.is_highlighted).map((part) => part.text);
}

export function joined(parts: readonly HighlightPartView[]): string {
  return parts.map((part) => part.text).join('');
}

/** A query string from pairs, values percent-encoded as UTF-8 (a tab becomes %09). */
export function queryOf(pairs: Record<string, string | number | readonly string[]>): string {
  const pieces: string[] = [];
  for (const [name, value] of Object.entries(pairs)) {
    const values = Array.isArray(value) ? value : [String(value)];
    for (const one of values as readonly string[]) pieces.push(`${name}=${encodeURIComponent(one)}`);
  }
  return pieces.join('&');
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
}

/**
 * GETs over real sockets with a connection pool of its own, closed by `close`, so no kept-alive
 * connection outlives the test file and holds up the service's stop.
 */
export class HttpClient {
  private readonly agent = new Agent();

  constructor(private readonly baseUrl: string) {}

  async get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const response = await undiciFetch(`${this.baseUrl}${pathAndQuery}`, {
      headers,
      redirect: 'manual',
      dispatcher: this.agent,
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, text: bytes.toString('utf8'), bytes };
  }

  /** GET expecting a JSON body with the given status; returns the parsed body. */
  async json<T>(pathAndQuery: string, status = 200, headers: Record<string, string> = {}): Promise<T> {
    const answer = await this.get(pathAndQuery, headers);
    if (answer.status !== status) {
      throw new Error(`GET ${pathAndQuery} answered ${answer.status}, expected ${status}: ${answer.text}`);
    }
    return JSON.parse(answer.text) as T;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
