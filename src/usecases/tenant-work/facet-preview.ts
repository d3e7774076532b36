import type { SearchServiceConfig } from '../../domain/schemas.js';
import { categoriesOf, compileFacetRules, drilldownPathsOf } from '../../search/site/facet-rules.js';

/** The categories and drill-down tree a configuration gives the indexed pages. */
export interface FacetPreview {
  /** Documents read (at most PREVIEW_DOCUMENTS) and in the index. */
  documents: number;
  ofDocuments: number;
  categories: { name: string; count: number }[];
  uncategorized: number;
  drilldown: DrilldownNode[];
}

export interface DrilldownNode {
  label: string;
  count: number;
  children: DrilldownNode[];
}

/** What a valid configuration's category and drill-down rules make of some indexed pages' URLs. */
export function facetPreviewOf(
  urls: readonly string[],
  total: number,
  config: SearchServiceConfig,
): FacetPreview {
  const rules = compileFacetRules(config);
  const categoryCounts = rules.categories.map(() => 0);
  let uncategorized = 0;
  const root: DrilldownNode = { label: '', count: 0, children: [] };
  for (const url of urls) {
    const categories = categoriesOf(url, rules);
    if (categories.length === 0) uncategorized += 1;
    for (const index of categories) categoryCounts[index]! += 1;
    // A page counts once per node even when two of its paths pass through it.
    const seen = new Set<DrilldownNode>();
    for (const path of drilldownPathsOf(url, rules)) {
      let node = root;
      for (const label of path.split('\t')) {
        let child = node.children.find((candidate) => candidate.label === label);
        if (child === undefined) {
          child = { label, count: 0, children: [] };
          node.children.push(child);
        }
        if (!seen.has(child)) {
          child.count += 1;
          seen.add(child);
        }
        node = child;
      }
    }
  }
  const sorted = (nodes: DrilldownNode[]): DrilldownNode[] =>
    nodes
      .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label))
      .map((node) => ({ ...node, children: sorted(node.children) }));
  return {
    documents: urls.length,
    ofDocuments: total,
    categories: rules.categories.map((category, index) => ({
      name: category.name,
      count: categoryCounts[index]!,
    })),
    uncategorized,
    drilldown: sorted(root.children),
  };
}
