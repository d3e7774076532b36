import { MAX_TEXT_LENGTH, type QueryReader, characterCount, cleanText } from './query-reader.js';

export const DOCTYPE_VALUES = ['all', 'html', 'pdf', 'doc', 'xls', 'ppt'] as const;
export type DoctypeValue = (typeof DOCTYPE_VALUES)[number];

/** Most drill-down paths one request may narrow on, to bound work. */
export const MAX_DRILLDOWN_PATHS = 100;
const QUOTE_LIMIT = 64;

/**
 * `doctype`: values separated by commas and/or given as repeated parameters; empty entries are
 * skipped. `all`, alone or among others, means every type and is echoed as `['all']`, as is an
 * absent doctype. An unknown value is an error naming it.
 */
export function readDoctype(reader: QueryReader): DoctypeValue[] {
  const result: DoctypeValue[] = [];
  for (const value of reader.all('doctype')) {
    for (const entry of value.split(',')) {
      const doctype = entry.trim();
      if (doctype === '') continue;
      if (!isDoctype(doctype)) {
        reader.fail('doctype', `unknown doctype ${quote(doctype)}; use ${DOCTYPE_VALUES.join(', ')}`);
      } else if (!result.includes(doctype)) {
        result.push(doctype);
      }
    }
  }
  return result.length === 0 || result.includes('all') ? ['all'] : result;
}

/**
 * `drilldown` (docs/reference/site-search.md, Search). A drill-down path is its labels joined by a
 * tab (`path` of FacetDrillDownInfo), so a tab cannot also separate paths: one value is ONE path of
 * tab-joined labels, and a client can send back the `path` it received; several paths come as
 * repeated `drilldown` parameters, or separated by a newline (%0A) in one value. Empty labels and
 * empty paths are dropped, duplicates collapse, and the paths combine with OR.
 */
export function readDrilldown(reader: QueryReader): string[] {
  const paths: string[] = [];
  for (const value of reader.all('drilldown')) {
    for (const line of value.split(/[\r\n]+/)) {
      const path = cleanText(line)
        .split('\t')
        .filter((label) => label !== '')
        .join('\t');
      if (path === '' || paths.includes(path)) continue;
      if (characterCount(path) > MAX_TEXT_LENGTH) {
        reader.fail('drilldown', `each path must be at most ${MAX_TEXT_LENGTH} characters`);
        return [];
      }
      paths.push(path);
    }
  }
  if (paths.length > MAX_DRILLDOWN_PATHS) {
    reader.fail('drilldown', `at most ${MAX_DRILLDOWN_PATHS} paths`);
    return [];
  }
  return paths;
}

function isDoctype(value: string): value is DoctypeValue {
  return (DOCTYPE_VALUES as readonly string[]).includes(value);
}

function quote(value: string): string {
  return JSON.stringify(value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT)}…` : value);
}
