import type { LoadedSegment } from '../search-index-types.js';
import type { FacetJobReply } from './facet-job.js';
import type { FacetPool } from './facet-pool.js';
import type { FacetRuleConfig } from './facet-rules.js';
import {
  type CompactFacets,
  decodeFacets,
  documentsDigestOf,
  encodeFacets,
  FacetsBuilder,
  rulesDigestOf,
} from './stored-facets.js';

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

/**
 * Categories and drill-down paths of each document of a segment, by ordinal (CompactFacets), with
 * the drill-down nodes of each of the segment's distinct paths: a document's nodes are those of
 * its paths (visitDocumentNodes), so nothing is built per document when a segment is loaded.
 */
export interface SegmentFacets extends CompactFacets {
  /** Node ids of every level of `table[p]`, top first, by path id p. */
  pathNodes: readonly Uint32Array[];
}

/** The label paths of a document, as OrganicDoc.drilldown shows them. */
export function documentPaths(facets: SegmentFacets, ordinal: number): string[] {
  const paths: string[] = [];
  for (let at = facets.pathStart[ordinal]!; at < facets.pathStart[ordinal + 1]!; at += 1)
    paths.push(facets.table[facets.pathIds[at]!]!);
  return paths;
}

/** Visits the drill-down nodes of a document (every level of every path), each once. */
export function visitDocumentNodes(
  facets: SegmentFacets,
  ordinal: number,
  visit: (node: number) => void,
): void {
  const first = facets.pathStart[ordinal]!;
  const end = facets.pathStart[ordinal + 1]!;
  if (end === first) return;
  if (end - first === 1) {
    for (const node of facets.pathNodes[facets.pathIds[first]!]!) visit(node);
    return;
  }
  // Paths of one document share their upper levels: those count once.
  const seen = new Set<number>();
  for (let at = first; at < end; at += 1)
    for (const node of facets.pathNodes[facets.pathIds[at]!]!) {
      if (seen.has(node)) continue;
      seen.add(node);
      visit(node);
    }
}

/** URLs per facet job: a segment of many documents is several jobs, each within the job limit. */
export const FACET_JOB_URLS = 500;
/**
 * Jobs of one segment given to the pool at once: the pool runs a service's jobs one at a time, so
 * a second one waiting keeps its thread busy while the first one's results are folded in.
 */
export const FACET_JOBS_IN_FLIGHT = 2;

/** Where a FacetIndex has its segments' URLs matched, and whom it tells when that fails. */
export interface FacetComputation {
  pool: FacetPool;
  /** The search service, as warnings name it; its jobs run one at a time in the pool. */
  owner: string;
  /** Told once per rule set when its facets cannot be computed. */
  onUnavailable: (reason: string) => void;
  /** Where facets computed before are kept (the index file); without it they are computed at each open. */
  stored?: StoredFacetRows;
  /**
   * The URL of each ordinal in `[start, end)` of a segment whose document still points at it,
   * null for the others: read only for a segment whose facets are not kept.
   */
  urlsOf(loaded: LoadedSegment, start: number, end: number): (string | null)[];
}

/** Segments' facets kept under a digest of their rules (stored-facets.ts). */
export interface StoredFacetRows {
  read(segmentId: number, rulesDigest: Buffer): Buffer | undefined;
  write(segmentId: number, rulesDigest: Buffer, data: Buffer): void;
}

/**
 * Facet data of the index under one set of rules: which categories and drill-down nodes each
 * document is in, computed from its URL once per segment (segments never change) in the facet
 * threads (facet-pool.ts), and the hierarchy of nodes, built here from the label paths they
 * return. A change of the rules builds a new FacetIndex. When a job fails (over its time limit),
 * the rule set's facets are unavailable: every document is then in no category and at no node.
 */
export class FacetIndex {
  private readonly nodeList: DrilldownNode[] = [];
  private readonly nodeByPath = new Map<string, number>();
  private readonly bySegment = new WeakMap<LoadedSegment, SegmentFacets>();
  private readonly pending = new WeakMap<LoadedSegment, Promise<void>>();
  private readonly empty = new WeakMap<LoadedSegment, SegmentFacets>();
  /**
   * Segments whose URLs could not be read: they show none, and each search that waits tries
   * again until they are read (only then do they leave this set).
   */
  private readonly unread = new WeakSet<LoadedSegment>();
  private readonly rulesKey: string;
  private readonly rulesDigest: Buffer;
  private names: string[] = [];
  private problem: string | undefined;
  private discarded = false;

  constructor(
    readonly rules: FacetRuleConfig,
    private readonly computation: FacetComputation,
  ) {
    this.rulesKey = JSON.stringify(rules);
    this.rulesDigest = rulesDigestOf(this.rulesKey);
  }

  /** False once a job of this rule set failed: no categories or drill-down for it then. */
  get available(): boolean {
    return this.problem === undefined;
  }

  get categoryNames(): readonly string[] {
    return this.available ? this.names : [];
  }

  get nodes(): readonly DrilldownNode[] {
    return this.available ? this.nodeList : [];
  }

  /** The node of a path, if any document was ever labelled with it. */
  nodeOf(path: string): number | undefined {
    return this.available ? this.nodeByPath.get(path) : undefined;
  }

  /**
   * Whether facetsOf can answer for every segment without waiting: computed, or known to have
   * none (unavailable, or the rules were replaced while a search waited, which then shows none).
   */
  covers(segments: readonly LoadedSegment[]): boolean {
    return !this.available || this.discarded || segments.every((loaded) => this.bySegment.has(loaded));
  }

  /**
   * Settles when the facets of every segment are known or the rule set is unavailable; never
   * rejects. Searches waiting at once on a segment share its jobs.
   */
  async ready(segments: readonly LoadedSegment[]): Promise<void> {
    await Promise.all(segments.map((loaded) => this.computed(loaded)));
  }

  /** The facets of a segment once covered; none (every document in no category) when unavailable. */
  facetsOf(loaded: LoadedSegment): SegmentFacets {
    const facets = this.available ? this.bySegment.get(loaded) : undefined;
    if (facets !== undefined) return facets;
    if (!this.covers([loaded]) && !this.unread.has(loaded))
      throw new Error('FacetIndex.facetsOf called before ready() settled');
    let none = this.empty.get(loaded);
    if (none === undefined) {
      const count = loaded.segment.docCount;
      none = {
        categoryNames: [],
        categoryStart: new Uint32Array(count + 1),
        categories: new Uint16Array(0),
        table: [],
        pathStart: new Uint32Array(count + 1),
        pathIds: new Uint32Array(0),
        pathNodes: [],
      };
      this.empty.set(loaded, none);
    }
    return none;
  }

  /** The rules were replaced: jobs of this rule set still waiting are not run. */
  discard(): void {
    this.discarded = true;
  }

  private computed(loaded: LoadedSegment): Promise<void> {
    if (this.covers([loaded])) return Promise.resolve();
    let pending = this.pending.get(loaded);
    if (pending === undefined) {
      pending = this.compute(loaded).finally(() => this.pending.delete(loaded));
      this.pending.set(loaded, pending);
    }
    return pending;
  }

  private async compute(loaded: LoadedSegment): Promise<void> {
    const documentsDigest =
      this.computation.stored === undefined ? '' : documentsDigestOf(loaded.segment.docIds);
    const stored = this.storedFacets(loaded, documentsDigest);
    if (stored !== undefined) {
      this.keep(loaded, this.assemble(stored));
      return;
    }
    const joined = await this.computeFromUrls(loaded);
    if (joined === undefined || !this.available) return;
    this.keep(loaded, this.assemble(joined));
    this.store(loaded, joined, documentsDigest);
  }

  /**
   * The segment's facets from its URLs, read and matched FACET_JOB_URLS at a time with at most
   * FACET_JOBS_IN_FLIGHT jobs of the segment given to the pool at once: a segment of half a
   * million documents never has all its URLs, or all its jobs' results, in memory together.
   * Undefined when they could not be computed (a job failed, the rules were replaced, or the URLs
   * could not be read).
   */
  private async computeFromUrls(loaded: LoadedSegment): Promise<CompactFacets | undefined> {
    const count = loaded.segment.docCount;
    const builder = new FacetsBuilder(count);
    const inFlight: Promise<FacetJobReply>[] = [];
    const settle = async (): Promise<boolean> => {
      const reply = await inFlight.shift()!;
      if (!reply.ok) this.fail(reply.reason);
      if (!reply.ok || !this.available || this.discarded) return false;
      builder.add(reply);
      return true;
    };
    // One job at least, so an empty segment still learns the category names.
    for (let start = 0; start === 0 || start < count; start += FACET_JOB_URLS) {
      let urls: (string | null)[];
      try {
        urls = this.computation.urlsOf(loaded, start, Math.min(count, start + FACET_JOB_URLS));
      } catch {
        // Unreadable (the index closed meanwhile): this search shows none, the next reads again.
        this.unread.add(loaded);
        return undefined;
      }
      const request = { rulesKey: this.rulesKey, rules: this.rules, urls };
      inFlight.push(
        this.computation.pool.run(this.computation.owner, request, () => this.available && !this.discarded),
      );
      if (inFlight.length >= FACET_JOBS_IN_FLIGHT && !(await settle())) return undefined;
    }
    while (inFlight.length > 0) if (!(await settle())) return undefined;
    return builder.finish();
  }

  private keep(loaded: LoadedSegment, facets: SegmentFacets): void {
    this.bySegment.set(loaded, facets);
    this.unread.delete(loaded);
  }

  /** The segment's facets as stored under these rules, if they were, for the same documents. */
  private storedFacets(loaded: LoadedSegment, documentsDigest: string): CompactFacets | undefined {
    const rows = this.computation.stored;
    if (rows === undefined) return undefined;
    try {
      const data = rows.read(loaded.segment.id, this.rulesDigest);
      return data === undefined ? undefined : decodeFacets(data, loaded.segment.docCount, documentsDigest);
    } catch {
      // Unreadable (the index closed meanwhile): computed as if never stored.
      return undefined;
    }
  }

  /** Keeps a segment's facets for the next open; they are only a saving, so a failed write is let be. */
  private store(loaded: LoadedSegment, result: CompactFacets, documentsDigest: string): void {
    try {
      this.computation.stored?.write(
        loaded.segment.id,
        this.rulesDigest,
        encodeFacets(result, documentsDigest),
      );
    } catch {
      // Another process writes the file, or it closed: the next open computes them again.
    }
  }

  private fail(reason: string): void {
    if (!this.available || this.discarded) return;
    this.problem = reason;
    this.computation.onUnavailable(reason);
  }

  /** The segment's facets with the nodes of each of its distinct paths, adding nodes not seen before. */
  private assemble(facets: CompactFacets): SegmentFacets {
    this.names = facets.categoryNames;
    return { ...facets, pathNodes: facets.table.map((path) => Uint32Array.from(this.nodesAlong(path))) };
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
        id = this.nodeList.length;
        this.nodeList.push({ id, parent, depth, label: labels[depth - 1]!, path: prefix, children: [] });
        this.nodeByPath.set(prefix, id);
        if (parent !== undefined) this.nodeList[parent]!.children.push(id);
      }
      result.push(id);
      parent = id;
    }
    return result;
  }
}
