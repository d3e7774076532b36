/**
 * `node dist/bench/eval/related-keywords-eval.js [--json file]`: the related keywords
 * (docs/reference/site-search.md, Related keywords) of a few queries on real documentation
 * sites, printed for a person to judge (docs/search-evaluation.md, Related keywords). The sites
 * are crawled and indexed as `npm run eval:search` does (Debian documentation packages served on
 * loopback).
 */
import { writeFileSync } from 'node:fs';
import { SearchActivity, SiteSearch, FacetPool } from '../../src/search/site/index.js';
import { systemClock } from '../../src/util/index.js';
import { APACHE_HTTPD_JA } from './apache-httpd-ja.js';
import type { CorpusSpec } from './corpus-spec.js';
import { EngineSystem } from './engine-system.js';
import { packageFolderOf } from './package-files.js';
import { loadCorpus } from './load-corpus.js';
import { contentPageUrls } from './page-documents.js';
import { POSTGRESQL_DOCS } from './postgresql-docs.js';

/** Five everyday queries per site: a topic a visitor asks about, not an index term. */
const PROBES: readonly { spec: CorpusSpec; queries: readonly string[] }[] = [
  { spec: POSTGRESQL_DOCS, queries: ['jsonb', 'vacuum', 'replication', 'trigger', 'index'] },
  { spec: APACHE_HTTPD_JA, queries: ['認証', 'キャッシュ', 'ログ', 'プロキシ', 'バーチャルホスト'] },
];

const jsonFlag = process.argv.indexOf('--json');
const jsonFile = jsonFlag >= 0 ? process.argv[jsonFlag + 1] : undefined;
const answers: Record<string, Record<string, string[]>> = {};
for (const { spec, queries } of PROBES) {
  const root = packageFolderOf(spec.debianPackage, spec.marker);
  if (root === undefined) {
    process.stderr.write(`related keywords: ${spec.debianPackage} is not installed; skipped\n`);
    continue;
  }
  const contentUrls = contentPageUrls(root, spec.baseUrl, (file) => !spec.isListing(file));
  const corpus = await loadCorpus(spec, root, 'crawl', contentUrls);
  const system = EngineSystem.open();
  const pool = new FacetPool();
  try {
    await system.index(corpus);
    const index = system.searchIndex;
    const site = new SiteSearch(index, {}, new SearchActivity(index.store, systemClock), { facetPool: pool });
    const set: Record<string, string[]> = {};
    process.stdout.write(`\n== ${spec.label}\n`);
    for (const query of queries) {
      const started = performance.now();
      const words = site.relatedKeywords(query, '');
      const milliseconds = performance.now() - started;
      set[query] = words;
      process.stdout.write(`${query}  (${milliseconds.toFixed(0)} ms)\n  ${words.join(', ')}\n`);
    }
    answers[spec.key] = set;
  } finally {
    await pool.close();
    await system.close();
    await corpus.dispose();
  }
}
if (jsonFile !== undefined) writeFileSync(jsonFile, `${JSON.stringify(answers, null, 2)}\n`);
