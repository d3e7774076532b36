import type { DrilldownNode } from './facet-index.js';

/** FacetDrillDownInfo (docs/reference/site-search.md, facet_drilldown_roots). */
export interface FacetDrillDownInfo {
  depth: number;
  title: string;
  path: string;
  count: number;
  is_selected: boolean;
  is_opened: boolean;
  children?: FacetDrillDownInfo[];
}

/** FacetDrillDownRootInfo (docs/reference/site-search.md, facet_drilldown_roots). */
export interface FacetDrillDownRootInfo {
  is_selected: boolean;
  is_opened: boolean;
  facet_drilldowns: FacetDrillDownInfo[];
}

/**
 * The drill-down hierarchy of the hits: one root per top-level label, holding that label's node
 * and, below it, every level that has hits (most hits first, then by path). A node is selected
 * when a requested drilldown path is its own, opened when a requested path is its own or lies
 * below it, so a client can draw the tree opened down to the selection.
 */
export function drilldownTree(
  nodes: readonly DrilldownNode[],
  counts: Int32Array,
  selectedPaths: readonly string[],
): FacetDrillDownRootInfo[] {
  const selected = new Set(selectedPaths);
  const opened = (path: string) =>
    selectedPaths.some((wanted) => wanted === path || wanted.startsWith(`${path}\t`));
  const infoOf = (node: DrilldownNode): FacetDrillDownInfo => {
    const children = ranked(
      node.children.map((id) => nodes[id]!),
      counts,
    ).map(infoOf);
    const info: FacetDrillDownInfo = {
      depth: node.depth,
      title: node.label,
      path: node.path,
      count: counts[node.id]!,
      is_selected: selected.has(node.path),
      is_opened: opened(node.path),
    };
    if (children.length > 0) info.children = children;
    return info;
  };
  const roots = ranked(
    nodes.filter((node) => node.depth === 1),
    counts,
  );
  return roots.map((root) => {
    const info = infoOf(root);
    return { is_selected: info.is_selected, is_opened: info.is_opened, facet_drilldowns: [info] };
  });
}

function ranked(candidates: DrilldownNode[], counts: Int32Array): DrilldownNode[] {
  return candidates
    .filter((node) => (counts[node.id] ?? 0) > 0)
    .sort((a, b) => counts[b.id]! - counts[a.id]! || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
