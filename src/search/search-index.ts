import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { ANALYZER_VERSION, type AnalyzedText } from './analyzer.js';
import { LEGACY_FEED } from '../domain/feed-keys.js';
import type { BatchTarget } from './batch-indexer.js';
import { analyzeDocumentFields, type AnalyzedPage, phrasesOfDocument } from './document-fields.js';
import {
  type DocumentLocation,
  type DocumentSummary,
  SearchIndexStore,
} from './storage/search-index-store.js';
import type { StoredDocument } from './storage/stored-document.js';
import type { BodyHead, HitDocument, HitDocumentSource } from './storage/hit-documents.js';
import type { TemplateLinesWithLengths } from './storage/template-block-schema.js';
import type { IndexedDocument } from './indexed-document.js';
import {
  DOCTYPE_BITS,
  type IndexSnapshot,
  type LoadedSegment,
  type SearchHit,
  type StagedRunEnd,
  type UpsertResult,
} from './search-index-types.js';
import { displayHeadOf, type DisplayHeadToStore } from './display-head.js';
import { type ReanalysisProgress, reanalyzeIndexFile } from './reanalysis-upgrade.js';
import { contentHashOf, storedFormOf } from './stored-document-form.js';
import type { HitTemplates, TemplateBlocks } from './template-blocks.js';
import { queryLanguageOf } from './page-language.js';
import { collapseGroups, SameTextGroups } from './same-text-copies.js';
import { resplitChanged, resplitStale, splitBatch } from './template-resplit.js';
import { findHits, type IndexStatistics, statisticsOf } from './engine/matcher.js';
import type { HitSet } from './engine/hit-set.js';
import { segmentsToMerge } from './engine/merge-policy.js';
import { planQuery, type QueryPlan } from './engine/query-plan.js';
import { DEFAULT_RANKING, type RankingParameters } from './engine/ranking.js';
import { decodeSegment, encodeSegment } from './engine/segment-codec.js';
import { buildSegment, type AnalyzedDocument } from './engine/segment-builder.js';
import { mergeSegments } from './engine/segment-merge.js';
import { Segment } from './engine/segment.js';
import { topK } from './engine/top-k.js';
import { SynonymTable } from './synonyms/synonym-table.js';
import { indexWordForms } from './word-forms/index-word-forms.js';

/**
 * The full-text index of one search service: an inverted index held in memory as immutable
 * segments (src/search/engine), persisted with the documents in one SQLite file. A batch is one
 * transaction that adds a segment and marks the replaced documents deleted; searches see the
 * index before or after a batch, never half of one. Another process's batches (kumo index
 * while kumo serve runs) are picked up before the next search.
 */
let opened = 0;

/** Documents of an upgraded file given their display heads after each write. */
const FILL_DISPLAY_HEADS = 2_000;

export class SearchIndex implements HitDocumentSource {
  readonly store: SearchIndexStore;
  /**
   * Names this open of the file among all of the process: a thread reading the file for result
   * pages keeps a connection per key, so a file removed and made again is never read through a
   * connection to the old one.
   */
  readonly openKey: string;
  private loaded: LoadedSegment[] = [];
  private statistics: IndexStatistics = statisticsOf([]);
  private generation = 0;
  private seenDataVersion: number;
  private templateCache: { generation: number; blocks: TemplateBlocks; hit?: HitTemplates } | undefined;
  /** The groups of pages with the same text, for the segment list they were found in. */
  private sameText: { segments: readonly LoadedSegment[] | undefined; groups: SameTextGroups } = {
    segments: undefined,
    groups: SameTextGroups.none,
  };
  /** The lengths found for the last generation: hosts whose lines did not change keep theirs. */
  private lastLineLengths: TemplateLinesWithLengths | undefined;

  /**
   * Opens (or creates) the index file; a file written by an older analyzer is indexed again from
   * its stored text first (reanalysis-upgrade.ts), `onUpgrade` told how far it is.
   */
  constructor(
    file: string,
    readonly ranking: RankingParameters = DEFAULT_RANKING,
    onUpgrade?: (progress: ReanalysisProgress) => void,
  ) {
    let upgraded = false;
    this.store = openIndexStore(file, (progress) => {
      upgraded = true;
      onUpgrade?.(progress);
    });
    opened += 1;
    this.openKey = `${opened}:${file}`;
    this.seenDataVersion = this.store.dataVersion();
    this.reload();
    // An upgrade writes one segment per batch of pages: merged as after a batch.
    if (upgraded) this.mergeWhileNeeded();
  }

  /**
   * The current view, after picking up other processes' changes, with the groups of pages with
   * the same main text (found once per generation, by the first search of it).
   */
  snapshot(): IndexSnapshot {
    this.refresh();
    if (this.sameText.segments !== this.loaded) {
      this.sameText = {
        segments: this.loaded,
        groups: SameTextGroups.of(this.store.displayHeads.sameTextRows(), this.loaded),
      };
    }
    return {
      segments: this.loaded,
      statistics: this.statistics,
      generation: this.generation,
      sameText: this.sameText.groups,
    };
  }

  get documentCount(): number {
    return this.statistics.documentCount;
  }

  /**
   * Adds or replaces documents (by URL) as one batch, `feed` claiming each of them (see
   * feed-keys.ts). A document whose content did not change is left as it is, but claimed. Of
   * several documents with one URL in a batch, the last counts. `analyzed` may hold each
   * document's fields and phrases analyzed beforehand (AnalysisPool, in another thread). With
   * `pass`, the documents' links are counted into that indexing pass (finishPass).
   */
  upsert(
    documents: readonly IndexedDocument[],
    feed: string,
    analyzed?: readonly AnalyzedPage[],
    pass?: string,
  ): UpsertResult {
    const byUrl = new Map(documents.map((document, index) => [document.url, { document, index }]));
    const result: UpsertResult = { added: 0, updated: 0, unchanged: 0 };
    const deletions: { segmentId: number; ordinal: number }[] = [];
    const indexed = new Set<number>();
    let built: Segment | undefined;
    this.store.writeTransaction(() => {
      this.refresh();
      if (pass !== undefined) this.countLinks(pass, byUrl.keys(), documents);
      const prepared = this.prepareBatch(byUrl.values(), analyzed, result, {
        replace: (existing, stored, hash, phrases) => {
          this.store.updateDocument(existing.id, stored, hash);
          this.store.phrases.put(existing.id, phrases);
          deletions.push({ segmentId: existing.segmentId, ordinal: existing.ordinal });
        },
        reached: (docId) => this.store.claims.claim(docId, feed),
        displayHead: (docId, head) => this.store.displayHeads.put(docId, head),
      });
      this.persistDeletions(deletions);
      for (const document of prepared) indexed.add(document.docId);
      built = this.writeSegment(prepared);
    });
    this.loadWritten(deletions, built);
    this.resplit(indexed);
    this.fillDisplayHeads();
    if (deletions.length > 0 || built !== undefined) this.mergeWhileNeeded();
    return result;
  }

  /** Inside a write transaction: a new searchable segment of `prepared`, its documents placed in it. */
  private writeSegment(prepared: readonly AnalyzedDocument[]): Segment | undefined {
    if (prepared.length === 0) return undefined;
    const built = buildSegment(this.store.nextSegmentId(), prepared);
    this.store.insertSegment(built.id, encodeSegment(built.data), built.deleted);
    built.data.docIds.forEach((docId, ordinal) => this.store.placeDocument(docId, built.id, ordinal));
    return built;
  }

  /** After a committed write: deletion marks and the new segment in memory. */
  private loadWritten(
    deletions: readonly { segmentId: number; ordinal: number }[],
    built: Segment | undefined,
  ): void {
    this.applyDeletions(deletions);
    if (built !== undefined) this.loaded = [...this.loaded, this.loadedOf(built)];
    if (deletions.length > 0 || built !== undefined) this.changed();
  }

  /**
   * Indexes again the documents whose template lines changed with the counts (a line now on
   * enough pages of its host, or no longer), in one transaction; `exclude` were just split.
   * `published`: the documents a staged run just published, split when they were staged; those
   * whose display head no longer holds are split again too (resplitStale).
   */
  private resplit(exclude: ReadonlySet<number> = new Set(), published: readonly number[] = []): void {
    const deletions: { segmentId: number; ordinal: number }[] = [];
    let built: Segment | undefined;
    this.store.writeTransaction(() => {
      this.refresh();
      const { prepared, replaced } = resplitChanged(this.store, exclude);
      const stale = resplitStale(
        this.store,
        published,
        new Set([...exclude, ...prepared.map((d) => d.docId)]),
      );
      prepared.push(...stale.prepared);
      replaced.push(...stale.replaced);
      deletions.push(...replaced);
      this.persistDeletions(deletions);
      built = this.writeSegment(prepared);
    });
    this.loadWritten(deletions, built);
  }

  /**
   * Upserts claimed for `feed`, where BatchIndexer writes (kumo index of a bundle or a run): one
   * indexing pass, whose pages take their inbound link counts when it finishes.
   */
  forFeed(feed: string): BatchTarget {
    const pass = `feed:${randomUUID()}`;
    return {
      upsert: (documents, analyzed) => this.upsert(documents, feed, analyzed, pass),
      finish: () => this.finishPass(pass),
    };
  }

  /**
   * Inside a write transaction: the pages of a batch (`urls`, each once) and what each links to,
   * counted into `pass` (docs/reference/site-search.md, Pages with the same text).
   */
  private countLinks(pass: string, urls: Iterable<string>, documents: readonly IndexedDocument[]): void {
    const linksOf = new Map(documents.map((document) => [document.url, document.linksTo ?? []]));
    for (const url of urls) this.store.inboundLinks.addPage(pass, url, linksOf.get(url) ?? []);
  }

  /**
   * Ends an indexing pass of upserts: each of its pages takes the count of the pass's pages
   * linking to it, which orders pages with the same text after their language.
   */
  finishPass(pass: string): void {
    this.store.writeTransaction(() => this.store.inboundLinks.write(pass));
    this.changed();
  }

  /**
   * Stages a batch of a scheduled run under `runKey`: new and changed documents are analyzed and
   * stored, but searches keep seeing the index as it was until `applyStaged`. Unchanged documents
   * (same content hash) are counted and left alone. Every document of the batch is claimed for
   * the run's feed when the run is applied. Each URL must come at most once per run key.
   */
  stage(
    runKey: string,
    documents: readonly IndexedDocument[],
    analyzed?: readonly AnalyzedPage[],
  ): UpsertResult {
    const result: UpsertResult = { added: 0, updated: 0, unchanged: 0 };
    this.store.writeTransaction(() => {
      const replaced = new Set<number>();
      // A new row is placed in a staged segment: no search loads it before the run is applied.
      const entries = documents.map((document, index) => ({ document, index }));
      this.countLinks(
        runKey,
        documents.map((document) => document.url),
        documents,
      );
      const prepared = this.prepareBatch(entries, analyzed, result, {
        replace: (existing, stored, hash, phrases) => {
          this.store.stageDocument(runKey, existing.id, stored, hash);
          this.store.phrases.stage(runKey, existing.id, phrases);
          replaced.add(existing.id);
        },
        reached: (docId) => this.store.claims.stageClaim(runKey, docId),
        displayHead: (docId, head) => {
          if (replaced.has(docId)) this.store.displayHeads.stage(runKey, docId, head);
          else this.store.displayHeads.put(docId, head);
        },
      });
      if (prepared.length === 0) return;
      const built = buildSegment(this.store.nextSegmentId(), prepared);
      this.store.insertStagedSegment(built.id, encodeSegment(built.data), built.deleted, runKey);
      built.data.docIds.forEach((docId, ordinal) => {
        if (replaced.has(docId)) this.store.placeStagedDocument(runKey, docId, built.id, ordinal);
        else this.store.placeDocument(docId, built.id, ordinal);
      });
    });
    return result;
  }

  /**
   * Applies a staged run in one transaction: its new and changed documents become searchable,
   * the versions they replace disappear, its feed claims every document it staged or found
   * unchanged, the documents `end.gone` names are removed, and the feed gives up the documents
   * it claimed, did not reach and `end.release` lets go of; those no other feed claims are
   * removed (see StagedRunEnd). Searches see the index before or after the whole run, never
   * part of it. Returns how many documents were removed.
   */
  applyStaged(runKey: string, end: StagedRunEnd): number {
    let removed = 0;
    let published: number[] = [];
    this.store.writeTransaction(() => {
      this.refresh();
      const deletions: { segmentId: number; ordinal: number }[] = [];
      for (const old of this.store.stagedReplacements(runKey))
        deletions.push({ segmentId: old.oldSegmentId, ordinal: old.oldOrdinal });
      const removeDocument = (document: { id: number; segmentId: number; ordinal: number }) => {
        this.store.deleteDocument(document.id);
        deletions.push({ segmentId: document.segmentId, ordinal: document.ordinal });
        removed += 1;
      };
      for (const url of new Set(end.gone)) {
        const document = this.store.locate(url);
        if (document === undefined || this.store.claims.stagedBy(runKey, document.id)) continue;
        // A row only another staging placed is not searchable yet: its own run decides about it.
        if (this.store.isStagedSegment(document.segmentId)) continue;
        this.store.claims.releaseClaim(document.id, LEGACY_FEED);
        if (!this.store.claims.releaseClaim(document.id, end.feed)) removeDocument(document);
      }
      for (const document of this.store.claims.unreachedClaims(runKey, end.feed)) {
        if (!end.release(document.url)) continue;
        if (!this.store.claims.releaseClaim(document.id, end.feed)) removeDocument(document);
      }
      this.store.claims.publishClaims(runKey, end.feed);
      this.persistDeletions(deletions);
      // A page this run changed but that was removed meanwhile stays removed: its new version's
      // posting is marked deleted, else it would be published without a document.
      for (const orphan of this.store.orphanedStaged(runKey))
        this.markStagedDeleted(orphan.segmentId, orphan.ordinal);
      published = this.store.displayHeads.runDocuments(runKey);
      this.store.publishStaged(runKey);
      // The run's pages take the counts of its links, with its texts; the others keep theirs.
      this.store.inboundLinks.write(runKey);
    });
    this.reload();
    this.resplit(new Set(), published);
    this.fillDisplayHeads();
    this.mergeWhileNeeded();
    return removed;
  }

  /**
   * The documents of a batch that need indexing, with their analyzed fields, inside a write
   * transaction: a new one is inserted as a row, an unchanged one (same content hash) is counted
   * and left out, a changed one keeps its id and `replace` stores its new text where the caller
   * wants it (in place, or aside until a staged run is applied). `reached` is told the id of
   * every document of the batch, unchanged ones included, for the feed's claim.
   */
  private prepareBatch(
    entries: Iterable<{ document: IndexedDocument; index: number }>,
    analyzed: readonly AnalyzedPage[] | undefined,
    result: UpsertResult,
    on: {
      replace: (
        existing: DocumentLocation,
        stored: Omit<StoredDocument, 'id'>,
        hash: Buffer,
        phrases: Uint8Array,
      ) => void;
      reached: (docId: number) => void;
      /** Its display head, once the batch's rows are counted and the template is known. */
      displayHead: (docId: number, head: DisplayHeadToStore) => void;
    },
  ): AnalyzedDocument[] {
    const prepared: { docId: number; url: string; body: string; fields: readonly AnalyzedText[] }[] = [];
    for (const { document, index } of entries) {
      const stored = storedFormOf(document);
      const hash = contentHashOf(stored);
      const existing = this.locateVisible(document.url);
      let docId: number;
      if (existing !== undefined && existing.contentHash.equals(hash)) {
        result.unchanged += 1;
        on.reached(existing.id);
        continue;
      }
      const page = analyzed?.[index];
      const phrases = page?.phrases ?? phrasesOfDocument(stored);
      if (existing === undefined) {
        docId = this.store.insertDocument(stored, hash);
        this.store.phrases.put(docId, phrases);
        result.added += 1;
      } else {
        docId = existing.id;
        on.replace(existing, stored, hash, phrases);
        result.updated += 1;
      }
      on.reached(docId);
      prepared.push({
        docId,
        url: document.url,
        body: stored.body,
        fields: page?.fields ?? analyzeDocumentFields(document),
      });
    }
    if (prepared.length === 0) return [];
    // Split after every row of the batch is counted: a site's first batch finds its own template.
    const blocks = this.store.templates.current();
    for (const { docId, url, body } of prepared) on.displayHead(docId, displayHeadOf(body, url, blocks));
    return splitBatch(prepared, blocks);
  }

  /**
   * Where a URL's searchable version is indexed, inside a write transaction. A row that only a
   * staged run placed (a page new in that run, not yet applied) is taken out of that staging: the
   * caller indexes the page itself, and the staged segment keeps no posting without a document
   * should its run be applied later.
   */
  private locateVisible(url: string): DocumentLocation | undefined {
    const existing = this.store.locate(url);
    if (existing === undefined || !this.store.isStagedSegment(existing.segmentId)) return existing;
    this.markStagedDeleted(existing.segmentId, existing.ordinal);
    this.store.deleteDocument(existing.id);
    return undefined;
  }

  /** Marks a document of a staged segment (not loaded, so not in this.loaded) deleted. */
  private markStagedDeleted(segmentId: number, ordinal: number): void {
    const flags = Uint8Array.from(this.store.deletedOf(segmentId) ?? []);
    flags[ordinal] = 1;
    this.store.updateDeleted(segmentId, flags);
  }

  /** Keys of runs with staged data, applied or discarded by nobody yet. */
  stagedRunKeys(): string[] {
    return this.store.stagedRunKeys();
  }

  /** Forgets what was staged under `runKey` (a run that did not end normally, or a retry). */
  discardStaged(runKey: string): void {
    this.store.writeTransaction(() => {
      this.store.dropStaged(runKey);
      this.store.inboundLinks.discard(runKey);
    });
  }

  /** Every feed with a claim on a document of this index (feed-keys.ts), sorted. */
  feeds(): string[] {
    return this.store.claims.feeds();
  }

  /** The feeds that claim the document at `url`, sorted; [] when it is not indexed. */
  feedsOf(url: string): string[] {
    const id = this.store.documentIdOf(url);
    return id === undefined ? [] : this.store.claims.feedsOf(id);
  }

  /**
   * Forgets feeds that will never run again (a deleted setting) in one transaction: a document
   * only they claimed becomes legacy, kept until a feed reaches it; no document is removed.
   */
  retireFeeds(feeds: readonly string[]): void {
    this.store.writeTransaction(() => {
      for (const feed of feeds) this.store.claims.retireFeed(feed);
    });
  }

  /** Removes documents by URL; returns how many were indexed. */
  remove(urls: readonly string[]): number {
    const deletions: { segmentId: number; ordinal: number }[] = [];
    this.store.writeTransaction(() => {
      this.refresh();
      for (const url of new Set(urls)) {
        const existing = this.locateVisible(url);
        if (existing === undefined) continue;
        this.store.deleteDocument(existing.id);
        deletions.push({ segmentId: existing.segmentId, ordinal: existing.ordinal });
      }
      this.persistDeletions(deletions);
    });
    this.applyDeletions(deletions);
    if (deletions.length > 0) {
      this.changed();
      this.resplit();
      this.mergeWhileNeeded();
    }
    return deletions.length;
  }

  /** Every document matching the query, scored (see engine/matcher.ts). */
  match(plan: QueryPlan, snapshot: IndexSnapshot = this.snapshot(), ranking = this.ranking): HitSet {
    return findHits(
      snapshot.segments.map((loaded) => loaded.segment),
      plan,
      snapshot.statistics,
      ranking,
    );
  }

  /**
   * Ranked documents for a query (best first, ties in indexing order): the CLI's and the
   * evaluation's search, with `synonyms` applied to the query when given and its words' other
   * forms found as the site search finds them (word-forms/word-forms.ts).
   */
  search(
    query: string,
    limit = 10,
    offset = 0,
    synonyms: SynonymTable = SynonymTable.none,
  ): { hits: number; docs: SearchHit[] } {
    const snapshot = this.snapshot();
    const hits = this.match(planQuery(query, synonyms, indexWordForms(snapshot)), snapshot);
    const summaryOf = (hit: number) => snapshot.segments[hits.segment[hit]!]!.summaries[hits.ordinal[hit]!]!;
    const sameText = snapshot.sameText.forLanguage(queryLanguageOf(query));
    const placeOf = (hit: number) => sameText.placeOf(hits.segment[hit]!, hits.ordinal[hit]!);
    const all = Array.from({ length: hits.count }, (_, hit) => hit);
    const kept = sameText.empty ? all : collapseGroups(all, placeOf);
    const ranked = topK(
      kept.length,
      offset + limit,
      (a, b) =>
        hits.score[kept[b]!]! - hits.score[kept[a]!]! || summaryOf(kept[a]!).id - summaryOf(kept[b]!).id,
    )
      .slice(offset)
      .map((position) => kept[position]!);
    return {
      hits: kept.length,
      docs: ranked.map((hit) => {
        const summary = summaryOf(hit);
        return {
          id: summary.id,
          url: summary.url,
          title: summary.title,
          score: hits.score[hit]!,
          copyUrls: sameText.otherUrls(placeOf(hit)),
        };
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

  /**
   * The template lines of each host as the counts of `snapshot`'s generation stand
   * (template-blocks.ts), read once per generation.
   */
  templateBlocks(snapshot: IndexSnapshot = this.snapshot()): TemplateBlocks {
    if (this.templateCache?.generation !== snapshot.generation)
      this.templateCache = { generation: snapshot.generation, blocks: this.store.templates.current() };
    return this.templateCache.blocks;
  }

  /** The template lines of `snapshot`'s generation with their lengths, found once per generation. */
  hitTemplates(snapshot: IndexSnapshot = this.snapshot()): HitTemplates {
    const blocks = this.templateBlocks(snapshot);
    const cache = this.templateCache!;
    if (cache.hit === undefined) {
      this.lastLineLengths = this.store.templates.lineLengths(blocks, this.lastLineLengths);
      cache.hit = { blocks, lineLengths: this.lastLineLengths.lineLengths };
    }
    return cache.hit;
  }

  close(): void {
    this.store.close();
  }

  /** Reloads what another connection changed: new and merged segments, deletion marks. */
  private refresh(): void {
    // data_version changes with other connections' commits only, never with this one's.
    const version = this.store.dataVersion();
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    this.reload();
  }

  private reload(): void {
    const byId = new Map(this.loaded.map((loaded) => [loaded.segment.id, loaded]));
    this.loaded = this.store.segmentIds().map((id) => {
      const known = byId.get(id);
      if (known !== undefined) {
        const deleted = this.store.deletedOf(id);
        if (deleted !== undefined)
          deleted.forEach((flag, ordinal) => flag && known.segment.markDeleted(ordinal));
        return known;
      }
      return this.loadSegment(id);
    });
    this.changed();
  }

  private loadSegment(id: number): LoadedSegment {
    const stored = this.store.segment(id);
    if (stored === undefined) throw new Error(`index segment ${id} vanished while loading`);
    const segment = new Segment(id, decodeSegment(stored.data), new Uint8Array(stored.deleted));
    return this.loadedOf(segment);
  }

  /** The segment with its documents' summaries by ordinal, from the rows that still point at it. */
  private loadedOf(segment: Segment): LoadedSegment {
    const summaries = new Array<DocumentSummary | undefined>(segment.docCount).fill(undefined);
    const doctypeBits = new Uint8Array(segment.docCount);
    for (const summary of this.store.summaries(segment.id)) {
      summaries[summary.ordinal] = summary;
      doctypeBits[summary.ordinal] = DOCTYPE_BITS[summary.doctype];
    }
    return { segment, summaries, doctypeBits };
  }

  private persistDeletions(deletions: readonly { segmentId: number; ordinal: number }[]): void {
    const bySegment = new Map<number, Uint8Array>();
    for (const { segmentId, ordinal } of deletions) {
      let flags = bySegment.get(segmentId);
      if (flags === undefined) {
        const loaded = this.loaded.find((candidate) => candidate.segment.id === segmentId);
        if (loaded === undefined) continue;
        flags = Uint8Array.from(loaded.segment.deleted);
        bySegment.set(segmentId, flags);
      }
      flags[ordinal] = 1;
    }
    for (const [segmentId, flags] of bySegment) this.store.updateDeleted(segmentId, flags);
  }

  private applyDeletions(deletions: readonly { segmentId: number; ordinal: number }[]): void {
    for (const { segmentId, ordinal } of deletions) {
      this.loaded.find((loaded) => loaded.segment.id === segmentId)?.segment.markDeleted(ordinal);
    }
  }

  /**
   * After a write to a file upgraded from format 8: stores the display heads of up to
   * FILL_DISPLAY_HEADS documents indexed before, in one transaction, until none is left
   * (docs/design/search-engine.md, Stored display heads). Unchanged pages are never written again,
   * so without this an upgraded file's pages would go without heads.
   */
  private fillDisplayHeads(): void {
    if (this.store.displayHeads.complete()) return;
    this.store.writeTransaction(() => {
      const blocks = this.store.templates.current();
      const missing = this.store.displayHeads.missing(FILL_DISPLAY_HEADS);
      for (const id of missing) {
        const document = this.store.document(id)!;
        this.store.displayHeads.put(id, displayHeadOf(document.body, document.url, blocks));
      }
      if (missing.length < FILL_DISPLAY_HEADS) this.store.displayHeads.markComplete();
      // The heads bring main text keys: the groups of pages with the same text are found again.
      if (missing.length > 0) this.sameText = { segments: undefined, groups: SameTextGroups.none };
    });
  }

  /**
   * Merges segments as the merge policy asks, one transaction per merge. A merge that finds the
   * file locked by another writer is left for the next batch: the batch itself is committed.
   */
  private mergeWhileNeeded(): void {
    try {
      this.mergeSegmentsNow();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }

  private mergeSegmentsNow(): void {
    for (;;) {
      let merged: { segment: Segment; sources: Segment[] } | undefined;
      this.store.writeTransaction(() => {
        // Chosen under the write lock, from the current state: another process may have deleted
        // documents of these segments, which the merge must not bring back.
        this.refresh();
        const chosen = segmentsToMerge(this.loaded.map((loaded) => loaded.segment));
        if (chosen === undefined) return;
        const sources = chosen.map((index) => this.loaded[index]!.segment);
        const result = mergeSegments(this.store.nextSegmentId(), sources);
        const segment = result.segment;
        this.store.insertSegment(segment.id, encodeSegment(segment.data), segment.deleted);
        result.docIds.forEach((docId, ordinal) => this.store.placeDocument(docId, segment.id, ordinal));
        for (const source of sources) this.store.deleteSegment(source.id);
        merged = { segment, sources };
      });
      if (merged === undefined) return;
      const removed = new Set(merged.sources.map((source) => source.id));
      this.loaded = [
        ...this.loaded.filter((loaded) => !removed.has(loaded.segment.id)),
        this.loadedOf(merged.segment),
      ];
      this.changed();
    }
  }

  /**
   * After any change: new statistics, and a new segment list even when only deletion marks
   * changed, since data derived from a snapshot (titles, vocabulary) is cached by its list.
   */
  private changed(): void {
    this.loaded = [...this.loaded];
    this.statistics = statisticsOf(this.loaded.map((loaded) => loaded.segment));
    this.generation += 1;
  }
}

/**
 * The store of an index file of this analyzer, a file of an older one upgraded by indexing its
 * documents again (docs/operations.md, Upgrading), `onUpgrade` told how far it is.
 */
function openIndexStore(file: string, onUpgrade?: (progress: ReanalysisProgress) => void): SearchIndexStore {
  return new SearchIndexStore(file, ANALYZER_VERSION, (rows, fromVersion) =>
    reanalyzeIndexFile(rows, fromVersion, onUpgrade),
  );
}

/**
 * The generation an index file was last published as or restored from (0 when none, or no file),
 * read without loading its segments (docs/design/scale-out.md, Search nodes); a file of an older
 * analyzer is upgraded first, `onUpgrade` told how far it is.
 */
export function publishedGenerationOf(
  file: string,
  onUpgrade?: (progress: ReanalysisProgress) => void,
): number {
  if (!existsSync(file)) return 0;
  const store = openIndexStore(file, onUpgrade);
  try {
    return store.publishedGeneration();
  } finally {
    store.close();
  }
}

/** Records the generation an index file now holds, without loading its segments. */
export function markPublishedGeneration(file: string, generation: number): void {
  const store = openIndexStore(file);
  try {
    store.setPublishedGeneration(generation);
  } finally {
    store.close();
  }
}
