import { categoriesOf, drilldownPathsOf, type FacetRuleConfig, type FacetRules } from './facet-rules.js';

/** What a facet thread is sent: the rules as written, and some URLs of a segment. */
export interface FacetJobRequest {
  /** The rules serialized: the thread keeps the rules it compiled under this key. */
  rulesKey: string;
  rules: FacetRuleConfig;
  /** By ordinal; null for an ordinal without a document (replaced before its segment loaded). */
  urls: (string | null)[];
}

/** Categories and drill-down label paths of each URL of a job, by position in `urls`. */
export interface FacetJobResult {
  ok: true;
  /** Category names in the order their indexes count (the order names first appear in the rules). */
  categoryNames: string[];
  /** Category indexes of URL i: `categories[categoryStart[i] .. categoryStart[i + 1]]`. */
  categoryStart: Uint32Array;
  categories: Uint16Array;
  /** The drill-down label paths of each URL (labels joined by a tab). */
  paths: string[][];
}

export type FacetJobReply = FacetJobResult | { ok: false; reason: string };

/** Matches each URL against the rules: the work of one facet job (facet-worker.ts). */
export function facetsOfUrls(urls: readonly (string | null)[], rules: FacetRules): FacetJobResult {
  const categoryStart = new Uint32Array(urls.length + 1);
  const categories: number[] = [];
  const paths: string[][] = [];
  urls.forEach((url, position) => {
    categoryStart[position] = categories.length;
    if (url === null) {
      paths.push([]);
      return;
    }
    categories.push(...categoriesOf(url, rules));
    paths.push(drilldownPathsOf(url, rules));
  });
  categoryStart[urls.length] = categories.length;
  return {
    ok: true,
    categoryNames: rules.categories.map((category) => category.name),
    categoryStart,
    categories: Uint16Array.from(categories),
    paths,
  };
}
