/**
 * The golden answers of site search (test/search/search-golden.test.ts): a fixed site of English
 * and Japanese pages, shaped like a documentation site with a blog (a shared header, navigation and
 * footer, headings, long bodies, categories and a drill-down tree), indexed as `kumo index` loads a
 * crawl bundle, and a list of requests whose answers, byte for byte, must not change unless a
 * change means them to. `npm run golden:search` writes the answers of the current code into
 * test/fixtures/search-golden.json after such a change.
 */
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundlePage, writeBundle } from './crawl-bundle.js';
import { runCli } from './cli-runner.js';
import { makeTempDir, startTestService, TEST_ADMIN_TOKEN, type TestService } from './service-harness.js';

/** Where the answers are kept, in the source tree (not dist). */
export const GOLDEN_FILE = fileURLToPath(
  new URL('../../../test/fixtures/search-golden.json', import.meta.url),
);

const HOST = 'https://docs.example.jp';
const SECTIONS = ['install', 'config', 'replication', 'backup'] as const;
const EN_WORDS = (
  'server client cluster replica primary standby archive snapshot restore schedule option value ' +
  'default parameter timeout connection pool index query plan vacuum checkpoint log rotation ' +
  'permission role password certificate network port address memory buffer cache disk storage'
).split(' ');
const JA_WORDS = (
  '設定 サーバー 接続 複製 バックアップ 復元 検索 索引 全文検索 日本語 形態素 辞書 更新 性能 ' +
  '監視 障害 運用 手順 確認 変更 保存 削除 追加 表示'
).split(' ');

/** A deterministic generator: the same site on every machine and every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 8;
  };
}

function sentence(words: readonly string[], next: () => number, length: number, joiner: string): string {
  return Array.from({ length }, () => words[next() % words.length]!).join(joiner);
}

function pageHtml(title: string, description: string, headings: string[], paragraphs: string[]): string {
  const sections = headings
    .map((heading, at) => `<h2>${heading}</h2>\n<p>${paragraphs[at] ?? ''}</p>`)
    .join('\n');
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${description}"></head><body>
<header><a href="/">Example Docs</a> <nav><a href="/docs/">Docs</a> <a href="/blog/">Blog</a> <a href="/ja/">日本語</a></nav></header>
<main><h1>${title}</h1>
${sections}
</main>
<footer>Copyright Example Project. All rights reserved. Contact support for help.</footer>
</body></html>`;
}

/** The pages of the site: documentation sections in English, a Japanese guide, a blog. */
export function goldenPages(): BundlePage[] {
  const pages: BundlePage[] = [];
  for (const [sectionAt, section] of SECTIONS.entries()) {
    for (let n = 0; n < 12; n++) {
      const next = generator(sectionAt * 100 + n + 1);
      const topic = EN_WORDS[next() % EN_WORDS.length]!;
      const title = `${section} guide ${n + 1}: ${topic} ${EN_WORDS[next() % EN_WORDS.length]}`;
      const headings = Array.from({ length: 3 }, (_, at) => `${at + 1}. ${sentence(EN_WORDS, next, 3, ' ')}`);
      // Long bodies: the words a query matches may lie far from the start.
      const paragraphs = headings.map(() => `${sentence(EN_WORDS, next, 120 + (next() % 400), ' ')}.`);
      pages.push({
        url: `${HOST}/docs/${section}/page-${n + 1}.html`,
        status: 200,
        html: pageHtml(title, `How to ${section} the ${topic}.`, headings, paragraphs),
      });
    }
  }
  for (let n = 0; n < 20; n++) {
    const next = generator(1000 + n);
    const title = `${sentence(JA_WORDS, next, 2, 'の')}の手引き ${n + 1}`;
    const headings = Array.from({ length: 3 }, () => sentence(JA_WORDS, next, 3, 'を'));
    const paragraphs = headings.map(() => `${sentence(JA_WORDS, next, 60 + (next() % 200), 'の')}。`);
    pages.push({
      url: `${HOST}/ja/guide-${n + 1}.html`,
      status: 200,
      html: pageHtml(
        title,
        `${JA_WORDS[next() % JA_WORDS.length]}について説明します。`,
        headings,
        paragraphs,
      ),
    });
  }
  for (let n = 0; n < 16; n++) {
    const next = generator(2000 + n);
    const title = `Release notes ${2020 + (n % 6)}.${n % 4}: ${sentence(EN_WORDS, next, 2, ' ')}`;
    const headings = ['Changes', 'Fixes'];
    const paragraphs = headings.map(
      () => `${sentence(EN_WORDS, next, 80, ' ')} 変更 ${sentence(JA_WORDS, next, 10, 'と')}.`,
    );
    pages.push({
      url: `${HOST}/blog/${2020 + (n % 6)}/post-${n + 1}.html`,
      status: 200,
      html: pageHtml(title, 'What changed in this release.', headings, paragraphs),
    });
  }
  return pages;
}

/** The search service's configuration: categories and a drill-down tree over the URLs. */
export const GOLDEN_SERVICE_CONFIG = {
  categories: [
    { name: 'Docs', url_pattern: '/docs/' },
    { name: 'Japanese', url_pattern: '/ja/' },
    { name: 'Blog', url_pattern: '/blog/' },
  ],
  drilldowns: [
    { url_pattern: '/docs/([a-z]+)/', path: 'Docs\t$1' },
    { url_pattern: '/blog/(\\d+)/', path: 'Blog\t$1' },
  ],
};

const SEARCH = '/api/v1.0/finder_service/documents/1/1/1';

/**
 * The requests whose answers are golden: suggest and related keywords first (searches add to the
 * query log their answers read, once a second: answered after them, they would depend on timing),
 * then search in its forms.
 */
export const GOLDEN_REQUESTS: readonly string[] = [
  `${SEARCH}/suggest?q=rep`,
  `${SEARCH}/suggest?q=${encodeURIComponent('バック')}`,
  `${SEARCH}/related_keywords?q=backup`,
  ...[
    'server',
    'replica standby',
    '"connection pool"',
    'backup OR restore',
    'cache -memory',
    'snapshott',
  ].map((q) => `${SEARCH}/search?q=${encodeURIComponent(q)}`),
  ...['検索', '全文検索 日本語', 'バックアップ 手順', 'バックアップの手順', '変更'].map(
    (q) => `${SEARCH}/search?q=${encodeURIComponent(q)}`,
  ),
  `${SEARCH}/search?q=server&page_number=2`,
  `${SEARCH}/search?q=server&number_per_page=3&sort_by=last_modified%20desc`,
  `${SEARCH}/search?q=guide&category=Docs`,
  `${SEARCH}/search?q=guide&drilldown=${encodeURIComponent('Docs\treplication')}`,
  `${SEARCH}/search?q=release&number_per_page=0`,
  `${SEARCH}/search?q=timeout&callback=show`,
];

/**
 * Indexes the golden site into a fresh data directory as `kumo index` does, starts the service on
 * it, configures search service 1 and answers every golden request: request path → exact body.
 */
export async function answerGoldenRequests(): Promise<Record<string, string>> {
  const dataDir = await makeTempDir('kumo-golden-');
  const bundle = path.join(dataDir, 'crawl_objects.tar.gz');
  writeBundle(bundle, goldenPages());
  let service: TestService | undefined;
  try {
    // The service first, so the data directory (and search service 1) exist for `kumo index`.
    service = await startTestService({ dataDir });
    const configured = await service.inject({
      method: 'PUT',
      url: '/admin/v1/contracts/1/servicegroups/1/search_services/1',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ config: GOLDEN_SERVICE_CONFIG }),
    });
    if (configured.statusCode !== 200) throw new Error(`configuring the search service: ${configured.body}`);
    await service.close();
    service = undefined;
    const indexed = await runCli(['index', '--service', '1', bundle], 60_000, { KUMO_DATA_DIR: dataDir });
    if (indexed.code !== 0) throw new Error(`kumo index failed: ${indexed.stderr}`);
    service = await startTestService({ dataDir });
    // The suggester of titles and headings is built in the background after the service opens.
    const started = Date.now();
    for (;;) {
      const probe = await service.inject({ method: 'GET', url: GOLDEN_REQUESTS[0]! });
      if ((JSON.parse(probe.body) as { suggestions: unknown[] }).suggestions.length > 0) break;
      if (Date.now() - started > 20_000) throw new Error(`suggest stayed empty: ${probe.body}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const answers: Record<string, string> = {};
    for (const url of GOLDEN_REQUESTS) {
      const response = await service.inject({ method: 'GET', url });
      answers[url] = `${response.statusCode} ${response.body}`;
    }
    return answers;
  } finally {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The golden answers as kept in the source tree. */
export async function readGoldenAnswers(): Promise<Record<string, string>> {
  return JSON.parse(await readFile(GOLDEN_FILE, 'utf8')) as Record<string, string>;
}
