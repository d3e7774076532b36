import { existsSync } from 'node:fs';
import type { KumoConfig } from '../config/index.js';
import { searchIndexFile } from '../config/index.js';
import { reanalysisReporter, SearchIndex } from '../search/local-index.js';
import { searchServiceOfServe } from './data-dir-check.js';
import { SearchActivity, SiteSearch } from '../search/site/index.js';
import { systemClock } from '../util/index.js';
import { serviceIdOption } from './service-option.js';
import { UsageError } from './usage-error.js';

export interface SearchOptionValues {
  service?: string;
  limit?: string;
}

/**
 * `kumo search`: the site search of the API (docs/reference/site-search.md, Search) run on the
 * service's index: the count, the did-you-mean, ranked pages one per line, then the related keywords.
 */
export async function searchCommand(
  positionals: string[],
  values: SearchOptionValues,
  config: KumoConfig,
): Promise<number> {
  const serviceId = serviceIdOption(values.service);
  const { service } = await searchServiceOfServe(config, serviceId);
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new UsageError(`--limit: expected a whole number from 1 to 100, got "${values.limit}"`);
  }
  if (positionals.length === 0) throw new UsageError('give a query', true);
  const file = searchIndexFile(config.dataDir, serviceId);
  if (!existsSync(file))
    throw new UsageError(`search service ${serviceId} has no index yet: run kumo index first`);
  const index = new SearchIndex(
    file,
    undefined,
    reanalysisReporter((message) => process.stderr.write(`${message}\n`)),
  );
  try {
    // The terminal's queries are not visitors': the activity is never flushed into the index.
    const search = new SiteSearch(index, service.config, new SearchActivity(index.store, systemClock), {
      name: `search service ${serviceId}`,
      warn: (message) => process.stderr.write(`${message}\n`),
      // One search, then the process ends: its did-you-mean reads the index's words at once.
      wordsAtOnce: true,
    });
    const query = positionals.join(' ');
    const result = await search.search({
      q: query,
      pageNumber: 1,
      numberPerPage: limit,
      sortKeys: [{ field: 'score', order: 'desc' }],
      category: '',
      drilldown: [],
      doctype: [],
    });
    const print = (line: string) => process.stdout.write(`${line}\n`);
    print(`${result.organic.hits} pages match`);
    const correction = result.spellcheck.main_phrase;
    if (correction !== '') print(`did you mean: ${correction}`);
    for (const doc of result.organic.docs) {
      print(`${doc.ranking}\t${doc.title}\t${doc.url}`);
      // Pages with the same main text, shown as this one (docs/reference/site-search.md).
      for (const url of doc.duplicate_urls ?? []) print(`\t\tsame text: ${url}`);
    }
    const related = search.relatedKeywords(query, '');
    if (related.length > 0) print(`related keywords: ${related.join(', ')}`);
  } finally {
    index.close();
  }
  return 0;
}
