/**
 * The pages and queries of bench:engines: the PostgreSQL 15 manual and the Apache HTTP Server
 * manual in English and Japanese, read from their Debian packages and extracted by the project's
 * own pageTextOf (eval/page-documents.ts); the queries are the judgments' queries of those sets
 * (eval/judgments.ts), so every engine is asked what readers of the manuals look up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { APACHE_HTTPD_JA } from '../eval/apache-httpd-ja.js';
import type { CorpusSpec } from '../eval/corpus-spec.js';
import { judgmentsOf } from '../eval/judgments.js';
import { packageFolderOf, packageVersionOf } from '../eval/package-files.js';
import { type EvalDocument, loadPages } from '../eval/page-documents.js';
import { POSTGRESQL_DOCS } from '../eval/postgresql-docs.js';

/**
 * The English pages of the Apache manual: apache2-doc keeps them in manual/en beside manual/ja,
 * with the same navigation pages and the same two lists (directive index, glossary) to draw
 * queries from, so only the folder and the URLs differ from the Japanese set.
 */
export const APACHE_HTTPD_EN: CorpusSpec = {
  ...APACHE_HTTPD_JA,
  key: 'apache-en',
  label: 'Apache httpd manual (English)',
  marker: 'en/glossary.html',
  baseUrl: 'https://httpd.apache.example/docs/2.4/en/',
  judgmentNote: 'directive index entry → query: the directive; glossary term → query: the term',
};

export const ENGINE_CORPORA: readonly CorpusSpec[] = [POSTGRESQL_DOCS, APACHE_HTTPD_EN, APACHE_HTTPD_JA];

/** Han, hiragana or katakana: a query written (at least partly) in Japanese. */
const JAPANESE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

export interface CorpusSet {
  spec: CorpusSpec;
  root: string;
  packageVersion: string;
  pages: number;
}

export interface CorpusQuery {
  text: string;
  japanese: boolean;
  /** Key of the first set whose judgments hold the query. */
  set: string;
}

export interface EnginesCorpus {
  sets: CorpusSet[];
  documents: EvalDocument[];
  /** Characters of the text the engines index (title, description, headings, body). */
  textChars: number;
  queries: CorpusQuery[];
  /** Distinct queries the judgments offered before the sample. */
  distinctQueries: number;
}

/** The folder of each set, or the Debian packages to install when some are missing. */
export function locateCorpora(): { located: { spec: CorpusSpec; root: string }[]; missing: string[] } {
  const located: { spec: CorpusSpec; root: string }[] = [];
  const missing = new Set<string>();
  for (const spec of ENGINE_CORPORA) {
    const root = packageFolderOf(spec.debianPackage, spec.marker);
    if (root === undefined) missing.add(spec.debianPackage);
    else located.push({ spec, root });
  }
  return { located, missing: [...missing] };
}

/** Reads every set's pages and judgments; `wanted` queries are sampled from the judgments. */
export function loadEnginesCorpus(
  located: { spec: CorpusSpec; root: string }[],
  wanted: number,
): EnginesCorpus {
  const sets: CorpusSet[] = [];
  const documents: EvalDocument[] = [];
  const offered: { text: string; set: string }[] = [];
  for (const { spec, root } of located) {
    process.stderr.write(`${spec.label}: loading pages from ${root}\n`);
    const pages = loadPages(root, spec.baseUrl, (file) => !spec.isListing(file));
    const entries = spec
      .indexFiles(root)
      .flatMap((file) =>
        spec.parseIndex(readFileSync(path.join(root, file), 'utf8'), new URL(file, spec.baseUrl).href),
      );
    const judged = judgmentsOf(entries, new Set(pages.map(({ url }) => url)), spec.judgmentOptions);
    for (const { query } of judged.judgments) offered.push({ text: query, set: spec.key });
    documents.push(...pages);
    sets.push({ spec, root, packageVersion: packageVersionOf(spec.debianPackage), pages: pages.length });
  }
  const distinct = distinctQueries(offered);
  let textChars = 0;
  for (const document of documents) textChars += indexedText(document).length + document.title.length;
  return {
    sets,
    documents,
    textChars,
    queries: sampleQueries(distinct, wanted),
    distinctQueries: distinct.length,
  };
}

/** Queries equal once NFKC-normalized and lowercased are one query (the Apache sets share directives). */
function distinctQueries(offered: readonly { text: string; set: string }[]): CorpusQuery[] {
  const seen = new Set<string>();
  const distinct: CorpusQuery[] = [];
  for (const { text, set } of offered) {
    const key = text.normalize('NFKC').toLowerCase().trim();
    if (seen.has(key)) continue;
    seen.add(key);
    distinct.push({ text, set, japanese: JAPANESE.test(text) });
  }
  return distinct;
}

/**
 * Every Japanese query (the judgments hold few: the glossary's terms), then English ones spread
 * evenly over the rest, so each set keeps its share and the sample is the same from run to run.
 */
function sampleQueries(distinct: readonly CorpusQuery[], wanted: number): CorpusQuery[] {
  const japanese = distinct.filter((query) => query.japanese).slice(0, wanted);
  const english = distinct.filter((query) => !query.japanese);
  const count = Math.min(english.length, wanted - japanese.length);
  const sampled = Array.from({ length: count }, (_, i) => english[Math.floor((i * english.length) / count)]!);
  return [...sampled, ...japanese];
}

/**
 * The text the anchor engines index besides the title: they have a title and a body column, so
 * the description and headings, which Kumo indexes as fields of their own, go into the body.
 * The template text (navigation) is left out, as Kumo leaves it out of its index.
 */
export function indexedText(document: EvalDocument): string {
  return [document.description, document.headings ?? '', document.body]
    .filter((part) => part !== '')
    .join('\n');
}

function escapedPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The search service configuration the Kumo server answers with: a category per set, and the
 * default drill-down (host and two directory levels), so the answers carry real facets.
 */
export const ENGINES_SEARCH_CONFIG: SearchServiceConfig = {
  categories: ENGINE_CORPORA.map((spec) => ({
    name: spec.label,
    url_pattern: `^${escapedPattern(spec.baseUrl)}`,
  })),
};
