import type { QueryReader } from './query-reader.js';

export const SORT_FIELDS = ['score', 'last_modified', 'title', 'click'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export interface SortKey {
  field: SortField;
  order: 'asc' | 'desc';
}

export interface SortBy {
  /** The keys as `field order`, for the echo in the answer. */
  sort_by: string[];
  sortKeys: SortKey[];
}

const DEFAULT_SORT: SortKey = { field: 'score', order: 'desc' };
/** Longest bad entry quoted back in an error, so a huge value is not echoed whole. */
const QUOTE_LIMIT = 64;

/**
 * `sort_by` (docs/reference/site-search.md, Search): entries separated by commas and/or given as
 * repeated parameters, each `field` or `field order` with the order `desc` when left out. Empty entries
 * (`score desc,`) are skipped; an unknown field or order, or a field given twice, is an error
 * naming the entry. Without any entry the sort is `score desc`.
 */
export function readSortBy(reader: QueryReader): SortBy {
  const sortKeys: SortKey[] = [];
  for (const value of reader.all('sort_by')) {
    for (const entry of value.split(',')) {
      const words = entry.trim().split(/ +/);
      if (words.length === 1 && words[0] === '') continue;
      const key = parseEntry(words, entry, reader);
      if (!key) continue;
      if (sortKeys.some((k) => k.field === key.field)) {
        reader.fail('sort_by', `${quote(entry)}: ${key.field} is given twice`);
        continue;
      }
      sortKeys.push(key);
    }
  }
  if (sortKeys.length === 0) sortKeys.push(DEFAULT_SORT);
  return { sort_by: sortKeys.map((k) => `${k.field} ${k.order}`), sortKeys };
}

function parseEntry(words: string[], entry: string, reader: QueryReader): SortKey | undefined {
  const [field, order = 'desc', ...rest] = words;
  if (rest.length > 0 || field === undefined) {
    reader.fail('sort_by', `${quote(entry)}: must be "field" or "field order"`);
    return undefined;
  }
  if (!isSortField(field)) {
    reader.fail('sort_by', `${quote(entry)}: unknown field; use ${SORT_FIELDS.join(', ')}`);
    return undefined;
  }
  if (order !== 'asc' && order !== 'desc') {
    reader.fail('sort_by', `${quote(entry)}: order must be asc or desc`);
    return undefined;
  }
  return { field, order };
}

function isSortField(value: string): value is SortField {
  return (SORT_FIELDS as readonly string[]).includes(value);
}

function quote(entry: string): string {
  const trimmed = entry.trim();
  return JSON.stringify(trimmed.length > QUOTE_LIMIT ? `${trimmed.slice(0, QUOTE_LIMIT)}…` : trimmed);
}
