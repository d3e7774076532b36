import type { LoadedSegment } from '../search-index-types.js';
import { categoriesOf, drilldownPathsOf, type FacetRules } from './facet-rules.js';

/** A node of the drill-down hierarchy: one label at one depth under its parent. */
export interface DrilldownNode {
  id: number;
  parent: number | undefined;
  /** 1 at the top. */
  depth: number;
  label: string;
  /** Labels from the top joined by a tab. */
  path: string;
  children: number[];
}

/** Categories and drill-down nodes of each document of a segment, by ordinal. */
export interface SegmentFacets {
  /** Categories of ordinal o: `categories[categoryStart[o] .. categoryStart[o + 1]]`. */
  categoryStart: Uint32Array;
  categories: Uint16Array;
  /** Drill-down nodes (every level of every path) of ordinal o, without repeats. */
  nodeStart: Uint32Array;
  nodes: Uint32Array;
  /** The label paths of each document, as OrganicDoc.drilldown shows them. */
  paths: string[][];
}

/**
 * Facet data of the index under one set of rules: which categories and drill-down nodes each
 * document is in, computed from its URL once per segment (segments never change), and the
 * hierarchy of nodes. A change of the rules builds a new FacetIndex.
 */
export class FacetIndex {
  readonly nodes: DrilldownNode[] = [];
  private readonly nodeByPath = new Map<string, number>();
  private readonly bySegment = new WeakMap<LoadedSegment, SegmentFacets>();

  constructor(readonly rules: FacetRules) {}

  get categoryNames(): string[] {
    return this.rules.categories.map((category) => category.name);
  }

  facetsOf(loaded: LoadedSegment): SegmentFacets {
    const cached = this.bySegment.get(loaded);
    if (cached !== undefined) return cached;
    const count = loaded.summaries.length;
    const categoryStart = new Uint32Array(count + 1);
    const nodeStart = new Uint32Array(count + 1);
    const categories: number[] = [];
    const nodes: number[] = [];
    const paths: string[][] = [];
    loaded.summaries.forEach((summary, ordinal) => {
      categoryStart[ordinal] = categories.length;
      nodeStart[ordinal] = nodes.length;
      if (summary === undefined) {
        paths.push([]);
        return;
      }
      categories.push(...categoriesOf(summary.url, this.rules));
      const documentPaths = drilldownPathsOf(summary.url, this.rules);
      paths.push(documentPaths);
      const seen = new Set<number>();
      for (const path of documentPaths) for (const node of this.nodesAlong(path)) seen.add(node);
      nodes.push(...seen);
    });
    categoryStart[count] = categories.length;
    nodeStart[count] = nodes.length;
    const facets = {
      categoryStart,
      categories: Uint16Array.from(categories),
      nodeStart,
      nodes: Uint32Array.from(nodes),
      paths,
    };
    this.bySegment.set(loaded, facets);
    return facets;
  }

  /** The node of a path, if any document was ever labelled with it. */
  nodeOf(path: string): number | undefined {
    return this.nodeByPath.get(path);
  }

  /** Node ids of every level of a path, top first, creating the nodes not seen before. */
  private nodesAlong(path: string): number[] {
    const labels = path.split('\t');
    const result: number[] = [];
    let parent: number | undefined;
    for (let depth = 1; depth <= labels.length; depth += 1) {
      const prefix = labels.slice(0, depth).join('\t');
      let id = this.nodeByPath.get(prefix);
      if (id === undefined) {
        id = this.nodes.length;
        this.nodes.push({ id, parent, depth, label: labels[depth - 1]!, path: prefix, children: [] });
        this.nodeByPath.set(prefix, id);
        if (parent !== undefined) this.nodes[parent]!.children.push(id);
      }
      result.push(id);
      parent = id;
    }
    return result;
  }
}
