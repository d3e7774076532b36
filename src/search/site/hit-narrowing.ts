/**
 * The filters of a site search over a query's hits, with the facet counts each filter shows
 * (docs/reference/site-search.md, Search), and pages with the same main text made one result
 * (same-text-copies.ts).
 */
import type { HitSet } from '../engine/hit-set.js';
import {
  DROPPED,
  GroupCollapse,
  MAX_GROUP_SIZE,
  NO_GROUP,
  type SameTextGroups,
} from '../same-text-copies.js';
import type { LoadedSegment } from '../search-index-types.js';
import { type SegmentFacets, visitDocumentNodes } from './facet-index.js';

/**
 * What the filters ask: the doctype bits, the category (undefined: any; -1, a category the
 * service does not have, finds nothing), the drill-down nodes (undefined: any; the nodes of the
 * paths asked that the service has, none finding nothing).
 */
export interface HitFilters {
  wantedTypes: number;
  category: number | undefined;
  selectedNodes: readonly number[] | undefined;
  categoryCount: number;
  nodeCount: number;
}

export interface NarrowedHits {
  /** The hits every filter keeps, one per group of pages with the same text, in hit order. */
  kept: Uint32Array;
  /** By category: hits of the doctype (only whether a count is above 0 is shown). */
  categoryCounts: Int32Array;
  /** By drill-down node: results over the hits in the category. */
  nodeCounts: Int32Array;
}

/**
 * Narrows in three steps, so each facet is counted over the hits the other filters leave:
 * categories over the doctype's hits, drill-down over those in the category, and the result over
 * those in the drill-down. Pages of one group count once for a node; of those the filters keep,
 * the first in the group's order is the result, so a filter finds the page of its own section.
 * A search of a million hits walks them once: most hits (one path, in no group) count their
 * path, whose nodes are counted once per segment at the end, and keep their place in a typed
 * array, where a closure, a list and a map a hit cost most of the search.
 */
export function narrowHits(
  hits: HitSet,
  segments: readonly LoadedSegment[],
  facets: readonly SegmentFacets[],
  groups: SameTextGroups,
  filters: HitFilters,
): NarrowedHits {
  const categoryCounts = new Int32Array(filters.categoryCount);
  const nodeCounts = new Int32Array(filters.nodeCount);
  /** Group and node pairs counted already: a group counts once for each node. */
  const nodesCounted = new Set<number>();
  const kept = new Uint32Array(hits.count);
  let keptCount = 0;
  const collapse = new GroupCollapse();
  const { selectedNodes, category: wantedCategory, wantedTypes } = filters;
  let current = -1;
  let doctypeBits: Uint8Array = new Uint8Array(0);
  let segmentFacets = facets[0]!;
  let pathHits: Int32Array = new Int32Array(0);
  let pathSelected: Uint8Array | undefined;
  for (let hit = 0; hit < hits.count; hit += 1) {
    const ordinal = hits.ordinal[hit]!;
    const segment = hits.segment[hit]!;
    if (segment !== current) {
      countPathNodes(segmentFacets, pathHits, nodeCounts);
      current = segment;
      doctypeBits = segments[segment]!.doctypeBits;
      segmentFacets = facets[segment]!;
      pathHits = new Int32Array(segmentFacets.pathNodes.length);
      pathSelected = selectedNodes && selectedPaths(segmentFacets, selectedNodes);
    }
    if ((doctypeBits[ordinal]! & wantedTypes) === 0) continue;
    const place = groups.placeOf(segment, ordinal);
    let inCategory = wantedCategory === undefined;
    const { categoryStart, categories, pathStart, pathIds } = segmentFacets;
    for (let at = categoryStart[ordinal]!; at < categoryStart[ordinal + 1]!; at += 1) {
      const category = categories[at]!;
      if (category === wantedCategory) inCategory = true;
      categoryCounts[category]! += 1;
    }
    if (!inCategory) continue;
    let inDrilldown = pathSelected === undefined;
    const firstPath = pathStart[ordinal]!;
    const pathCount = pathStart[ordinal + 1]! - firstPath;
    if (place === NO_GROUP && pathCount === 1) {
      const path = pathIds[firstPath]!;
      pathHits[path]! += 1;
      if (pathSelected !== undefined && pathSelected[path] === 1) inDrilldown = true;
    } else if (pathCount > 0) {
      const group = place === NO_GROUP ? NO_GROUP : Math.floor(place / MAX_GROUP_SIZE);
      visitDocumentNodes(segmentFacets, ordinal, (node) => {
        if (!inDrilldown && selectedNodes!.includes(node)) inDrilldown = true;
        if (group !== NO_GROUP && !firstTime(nodesCounted, group * filters.nodeCount + node)) return;
        nodeCounts[node]! += 1;
      });
    }
    if (!inDrilldown) continue;
    const slot = place === NO_GROUP ? keptCount : collapse.slotOf(place, keptCount);
    if (slot === keptCount) keptCount += 1;
    if (slot !== DROPPED) kept[slot] = hit;
  }
  countPathNodes(segmentFacets, pathHits, nodeCounts);
  return { kept: kept.subarray(0, keptCount), categoryCounts, nodeCounts };
}

/** Adds to each node the hits counted on the segment's paths under it. */
function countPathNodes(facets: SegmentFacets, pathHits: Int32Array, nodeCounts: Int32Array): void {
  for (let path = 0; path < pathHits.length; path += 1) {
    const count = pathHits[path]!;
    if (count === 0) continue;
    const nodes = facets.pathNodes[path]!;
    for (let at = 0; at < nodes.length; at += 1) nodeCounts[nodes[at]!]! += count;
  }
}

/** By path id of a segment: 1 where a node of the path is selected. */
function selectedPaths(facets: SegmentFacets, selectedNodes: readonly number[]): Uint8Array {
  const selected = new Uint8Array(facets.pathNodes.length);
  facets.pathNodes.forEach((nodes, path) => {
    if (nodes.some((node) => selectedNodes.includes(node))) selected[path] = 1;
  });
  return selected;
}

function firstTime(counted: Set<number>, key: number): boolean {
  if (counted.has(key)) return false;
  counted.add(key);
  return true;
}
