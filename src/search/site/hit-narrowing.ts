/**
 * The filters of a site search over a query's hits, with the facet counts each filter shows
 * (docs/reference/site-search.md, Search), and pages with the same main text made one result
 * (same-text-copies.ts).
 */
import type { HitSet } from '../engine/hit-set.js';
import { MAX_GROUP_SIZE, NO_GROUP, collapseGroups, type SameTextGroups } from '../same-text-copies.js';
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
  /** The hits every filter keeps, one per group of pages with the same text. */
  kept: number[];
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
  const passing: number[] = [];
  for (let hit = 0; hit < hits.count; hit += 1) {
    const ordinal = hits.ordinal[hit]!;
    const segment = hits.segment[hit]!;
    if ((segments[segment]!.doctypeBits[ordinal]! & filters.wantedTypes) === 0) continue;
    const place = groups.placeOf(segment, ordinal);
    const group = place === NO_GROUP ? NO_GROUP : Math.floor(place / MAX_GROUP_SIZE);
    const segmentFacets = facets[segment]!;
    let inCategory = filters.category === undefined;
    for (
      let at = segmentFacets.categoryStart[ordinal]!;
      at < segmentFacets.categoryStart[ordinal + 1]!;
      at += 1
    ) {
      const category = segmentFacets.categories[at]!;
      if (category === filters.category) inCategory = true;
      categoryCounts[category]! += 1;
    }
    if (!inCategory) continue;
    let inDrilldown = filters.selectedNodes === undefined;
    const firstPath = segmentFacets.pathStart[ordinal]!;
    const pathCount = segmentFacets.pathStart[ordinal + 1]! - firstPath;
    if (group === NO_GROUP && pathCount === 1) {
      // Most hits: one path, in no group. Counted here without a closure a hit, which a search
      // of a million hits would allocate a million times.
      const nodes = segmentFacets.pathNodes[segmentFacets.pathIds[firstPath]!]!;
      for (let at = 0; at < nodes.length; at += 1) {
        const node = nodes[at]!;
        if (!inDrilldown && filters.selectedNodes!.includes(node)) inDrilldown = true;
        nodeCounts[node]! += 1;
      }
    } else if (pathCount > 0) {
      visitDocumentNodes(segmentFacets, ordinal, (node) => {
        if (!inDrilldown && filters.selectedNodes!.includes(node)) inDrilldown = true;
        if (group !== NO_GROUP && !firstTime(nodesCounted, group * filters.nodeCount + node)) return;
        nodeCounts[node]! += 1;
      });
    }
    if (inDrilldown) passing.push(hit);
  }
  const kept = groups.empty
    ? passing
    : collapseGroups(passing, (hit) => groups.placeOf(hits.segment[hit]!, hits.ordinal[hit]!));
  return { kept, categoryCounts, nodeCounts };
}

function firstTime(counted: Set<number>, key: number): boolean {
  if (counted.has(key)) return false;
  counted.add(key);
  return true;
}
