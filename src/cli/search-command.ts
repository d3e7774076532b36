import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KumoConfig } from '../config/config.js';
import { searchIndexFile } from '../service/data-dir.js';
import { SearchIndex } from '../search/search-index.js';
import { searchServiceOfServe } from './data-dir-check.js';
import { serviceIdOption } from './index-command.js';
import { UsageError } from './usage-error.js';

/** `kumo search`: the ranked pages of a search service for a query, one per line. */
export async function searchCommand(argv: string[], config: KumoConfig): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { service: { type: 'string' }, limit: { type: 'string' } },
  });
  const serviceId = serviceIdOption(values.service);
  searchServiceOfServe(config, serviceId);
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new UsageError(`--limit: expected a whole number from 1 to 100, got "${values.limit}"`);
  }
  if (positionals.length === 0) throw new UsageError('kumo search: give a query');
  const file = searchIndexFile(config.dataDir, serviceId);
  if (!existsSync(file))
    throw new UsageError(`search service ${serviceId} has no index yet: run kumo index first`);
  const index = new SearchIndex(file);
  try {
    const { hits, docs } = index.search(positionals.join(' '), limit);
    process.stdout.write(`${hits} pages match\n`);
    docs.forEach((doc, rank) => process.stdout.write(`${rank + 1}\t${doc.title}\t${doc.url}\n`));
  } finally {
    index.close();
  }
  return 0;
}
