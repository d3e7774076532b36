/**
 * The fixed query mix of the search benchmark, as site search requests and as API paths, the
 * suggest prefixes, and the query log that feeds suggest.
 */
import type { SiteSearchRequest } from '../src/search/index.js';
import { random } from './bench-site-pages.js';
import { corpusVocabulary } from './search-vocabulary.js';

export interface BenchQuery {
  /** What the query stands for in the report. */
  kind: string;
  q: string;
  /** A drill-down path (labels joined by a tab) to narrow on. */
  drilldown?: string;
  sortByLastModified?: boolean;
}

export const QUERY_MIX: readonly BenchQuery[] = [
  { kind: 'common word', q: 'service' },
  { kind: 'mid-frequency word', q: 'weather' },
  { kind: 'two words', q: 'search engine' },
  { kind: 'phrase', q: '"customer support"' },
  { kind: 'Japanese 2 chars', q: '京都' },
  { kind: 'Japanese compound', q: '検索エンジン' },
  { kind: 'Japanese two words', q: '東京都 天気' },
  { kind: 'rare English', q: 'zephyrine' },
  { kind: 'rare Japanese', q: '蒼穹' },
  { kind: 'OR', q: 'weather OR finance' },
  { kind: 'exclusion', q: 'browser -render' },
  { kind: 'typo (did-you-mean)', q: 'serch' },
  { kind: 'word being typed', q: 'servi' },
  { kind: 'drill-down filter', q: 'information', drilldown: 'support\tfaq' },
  { kind: 'sort last_modified', q: 'service', sortByLastModified: true },
];

/** The request SiteSearch gets for a query of the mix: page 1, 10 per page, every doctype. */
export function siteSearchRequest(query: BenchQuery): SiteSearchRequest {
  return {
    q: query.q,
    pageNumber: 1,
    numberPerPage: 10,
    sortKeys: [{ field: query.sortByLastModified ? 'last_modified' : 'score', order: 'desc' }],
    category: '',
    drilldown: query.drilldown === undefined ? [] : [query.drilldown],
    doctype: ['all'],
  };
}

/** The search API path of a query for service 1 of contract 1, service group 1. */
export function searchPath(query: BenchQuery): string {
  const parameters = new URLSearchParams({ q: query.q });
  if (query.drilldown !== undefined) parameters.set('drilldown', query.drilldown);
  if (query.sortByLastModified) parameters.set('sort_by', 'last_modified desc');
  return `/api/v1.0/finder_service/documents/1/1/1/search?${parameters.toString().replace(/\+/g, '%20')}`;
}

export const SUGGEST_PREFIXES: readonly { kind: string; prefix: string }[] = [
  { kind: '1 char', prefix: 's' },
  { kind: '2 chars', prefix: 'se' },
  { kind: '4 chars', prefix: 'serv' },
  { kind: '4 chars', prefix: 'weat' },
  { kind: 'Japanese 1 char', prefix: '東' },
  { kind: 'Japanese 2 chars', prefix: '検索' },
  { kind: 'multi-word', prefix: 'search e' },
  { kind: 'multi-word', prefix: 'customer su' },
];

/**
 * Queries visitors asked, for the query log suggest draws on: words and word pairs of both
 * languages drawn by their Zipf weight, so common ones are asked often.
 */
export function loggedQueries(count: number): string[] {
  const next = random(4242);
  const { englishTitle, japaneseText } = corpusVocabulary();
  return Array.from({ length: count }, () => {
    const roll = next();
    if (roll < 0.45) return englishTitle.pick(next());
    if (roll < 0.65) return `${englishTitle.pick(next())} ${englishTitle.pick(next())}`;
    if (roll < 0.9) return japaneseText.pick(next());
    return `${japaneseText.pick(next())} ${japaneseText.pick(next())}`;
  });
}
