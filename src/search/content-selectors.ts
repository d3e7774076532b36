import { parseSelectorList, type SelectorList } from '../domain/index.js';
import type { SearchServiceConfig } from '../domain/schemas.js';

/**
 * A search service's content selectors, compiled (docs/reference/site-search.md, Content
 * selectors): `main` marks the main content, `exclude` parts left out entirely.
 */
export interface ContentSelectors {
  main?: SelectorList;
  exclude?: SelectorList;
}

/** The compiled selectors of a configuration (validated before it was stored). */
export function contentSelectorsOf(config: SearchServiceConfig | undefined): ContentSelectors {
  const given = config?.content_selectors;
  const join = (selectors: readonly string[] | undefined): SelectorList | undefined =>
    selectors === undefined || selectors.length === 0
      ? undefined
      : { alternatives: selectors.flatMap((selector) => parseSelectorList(selector).alternatives) };
  return { main: join(given?.main), exclude: join(given?.exclude) };
}
