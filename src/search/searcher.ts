import { findHits } from './engine/matcher.js';
import type { HitSet } from './engine/hit-set.js';
import type { QueryPlan } from './engine/query-plan.js';
import type { RankingParameters } from './engine/ranking.js';
import { topK } from './engine/top-k.js';
import { collapseGroups } from './same-text-copies.js';
import type { IndexSnapshot, SearchHit } from './search-index-types.js';
import type { BodyHead, HitDocument, HitDocumentSource } from './storage/hit-documents.js';
import type { SearchIndexStore } from './storage/search-index-store.js';
import type { StoredDocument } from './storage/stored-document.js';
import { knownLineLengths, type TemplateLinesWithLengths } from './storage/template-block-schema.js';
import type { HitTemplates, TemplateBlocks } from './template-blocks.js';

/**
 * The template lines of an index, read once per generation (template-blocks.ts), kept by the
 * index across its searchers: the lengths found for one generation are reused for the next where
 * a host's lines did not change.
 */
export class TemplateCache {
  private cached: { generation: number; blocks: TemplateBlocks; hit?: HitTemplates } | undefined;
  private lastLineLengths: TemplateLinesWithLengths | undefined;

  constructor(private readonly store: SearchIndexStore) {}

  blocks(generation: number): TemplateBlocks {
    if (this.cached?.generation !== generation)
      this.cached = { generation, blocks: this.store.templates.current() };
    return this.cached.blocks;
  }

  /** The generation's template lines with their lengths, found now if they were not yet. */
  hitTemplates(generation: number): HitTemplates {
    return (
      this.knownHitTemplates(generation) ??
      this.keep(generation, this.store.templates.lineLengths(this.blocks(generation), this.lastLineLengths))
    );
  }

  /** The generation's template lines with their lengths, undefined until they are found. */
  knownHitTemplates(generation: number): HitTemplates | undefined {
    this.blocks(generation);
    return this.cached!.hit;
  }

  /**
   * The generation's template lines with the lengths known without reading a page: those of the
   * hosts whose lines are as they were when lengths were last found. A host without them has
   * each line of a hit hashed, which cuts it the same.
   */
  templatesWithKnownLengths(generation: number): HitTemplates {
    const blocks = this.blocks(generation);
    return { blocks, lineLengths: knownLineLengths(blocks, this.lastLineLengths) };
  }

  /** Finds the generation's lengths (TemplateBlockStore.lineLengthsWork), pausing as it reads pages. */
  *hitTemplatesWork(generation: number): Generator<void, HitTemplates, void> {
    const blocks = this.blocks(generation);
    return this.keep(generation, yield* this.store.templates.lineLengthsWork(blocks, this.lastLineLengths));
  }

  /** Keeps lengths found for `generation`: its searches' from now on, the next generation's start. */
  private keep(generation: number, found: TemplateLinesWithLengths): HitTemplates {
    this.lastLineLengths = found;
    const hit = { blocks: found.blocks, lineLengths: found.lineLengths };
    if (this.cached?.generation === generation) this.cached.hit = hit;
    return hit;
  }
}

/**
 * Reads one generation of an index (docs/design/search-engine.md, Segments): matches query plans
 * against its segments, ranks the best hits, and reads the documents a result page shows. The
 * generation never changes under it; the writer's later batches are for the next searcher.
 */
export class Searcher implements HitDocumentSource {
  constructor(
    readonly snapshot: IndexSnapshot,
    private readonly store: SearchIndexStore,
    private readonly templates: TemplateCache,
    readonly ranking: RankingParameters,
  ) {}

  /**
   * Whether every segment of the generation is still in the file. A search reads terms from the
   * file as it goes; a merge committed meanwhile by another process removes the segments it
   * merged, so a search reads the file and then checks this, and runs again on the new
   * generation when it fails (docs/design/search-engine.md, Segments).
   */
  stillReadable(): boolean {
    return this.store.segmentsPresent(this.snapshot.segments.map((loaded) => loaded.segment.id));
  }

  /** Every document matching the plan, scored (see engine/matcher.ts). */
  match(plan: QueryPlan, ranking = this.ranking): HitSet {
    return findHits(
      this.snapshot.segments.map((loaded) => loaded.segment),
      plan,
      this.snapshot.statistics,
      ranking,
    );
  }

  /**
   * The best hits of a plan, best first (ties in indexing order), `offset` of them skipped: of
   * pages with the same text, the one in `language` stands for the others (same-text-copies.ts).
   * The ranking the command line, the benches and the evaluation read; the site search adds
   * filters, facets and its sort orders (site/site-search.ts).
   */
  top(plan: QueryPlan, language: string, limit = 10, offset = 0): { hits: number; docs: SearchHit[] } {
    const { snapshot } = this;
    const hits = this.match(plan);
    const idOf = (hit: number) => snapshot.segments[hits.segment[hit]!]!.segment.docIds[hits.ordinal[hit]!]!;
    const sameText = snapshot.sameText.forLanguage(language);
    const placeOf = (hit: number) => sameText.placeOf(hits.segment[hit]!, hits.ordinal[hit]!);
    const all = Array.from({ length: hits.count }, (_, hit) => hit);
    const kept = sameText.empty ? all : collapseGroups(all, placeOf);
    const ranked = topK(
      kept.length,
      offset + limit,
      (a, b) => hits.score[kept[b]!]! - hits.score[kept[a]!]! || idOf(kept[a]!) - idOf(kept[b]!),
    )
      .slice(offset)
      .map((position) => kept[position]!);
    return {
      hits: kept.length,
      // A document removed since the snapshot was taken is left out of its page.
      docs: ranked.flatMap((hit) => {
        const id = idOf(hit);
        const heading = this.store.heading(id);
        if (heading === undefined) return [];
        return [{ id, ...heading, score: hits.score[hit]!, copyUrls: sameText.otherUrls(placeOf(hit)) }];
      }),
    };
  }

  document(id: number): StoredDocument | undefined {
    return this.store.document(id);
  }

  /** A hit as a result page shows it: its body only as far as `bodyChars` code points. */
  hitDocument(id: number, bodyChars: number): HitDocument | undefined {
    return this.store.hitDocument(id, bodyChars);
  }

  bodyHead(id: number, bodyChars: number): BodyHead | undefined {
    return this.store.bodyHead(id, bodyChars);
  }

  linkText(id: number, chars: number): string | undefined {
    return this.store.linkText(id, chars);
  }

  wholeBody(id: number): string | undefined {
    return this.store.wholeBody(id);
  }

  /** The template lines of each host as the counts of this generation stand (template-blocks.ts). */
  templateBlocks(): TemplateBlocks {
    return this.templates.blocks(this.snapshot.generation);
  }

  /** The template lines of this generation with their lengths, found once per generation. */
  hitTemplates(): HitTemplates {
    return this.templates.hitTemplates(this.snapshot.generation);
  }

  /** As `hitTemplates` when the lengths are found; else with those known (TemplateCache.templatesWithKnownLengths). */
  hitTemplatesIfFound(): { templates: HitTemplates; found: boolean } {
    const { generation } = this.snapshot;
    const known = this.templates.knownHitTemplates(generation);
    if (known !== undefined) return { templates: known, found: true };
    return { templates: this.templates.templatesWithKnownLengths(generation), found: false };
  }

  /** Finds this generation's lengths, pausing as it reads pages: for work in slices. */
  hitTemplatesWork(): Generator<void, HitTemplates, void> {
    return this.templates.hitTemplatesWork(this.snapshot.generation);
  }
}
