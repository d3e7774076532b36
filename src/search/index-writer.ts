import { randomUUID } from 'node:crypto';
import type { AnalyzedText } from './analyzer.js';
import { LEGACY_FEED } from '../domain/index.js';
import type { BatchTarget } from './batch-indexer.js';
import { analyzeDocumentFields, type AnalyzedPage, phrasesOfDocument } from './document-fields.js';
import type { DocumentLocation, SearchIndexStore } from './storage/search-index-store.js';
import type { StoredDocument } from './storage/stored-document.js';
import type { IndexedDocument } from './indexed-document.js';
import type { StagedRunEnd, UpsertResult } from './search-index-types.js';
import { displayHeadOf, type DisplayHeadToStore } from './display-head.js';
import type { IndexSegments, Posting, WrittenSegment } from './index-segments.js';
import { contentHashOf, storedFormOf } from './stored-document-form.js';
import { resplitChanged, resplitStale, splitBatch } from './template-resplit.js';
import { pageHostOf, type TemplateBlocks } from './template-blocks.js';
import { segmentsToMerge } from './engine/merge-policy.js';
import { encodeDocArrays, type DocArrays } from './engine/segment-codec.js';
import { buildSegment, type AnalyzedDocument } from './engine/segment-builder.js';
import { mergeSegments } from './engine/segment-merge.js';
import { storeSegmentTerms, TermRowWriter } from './segment-rows.js';
import type { Segment } from './engine/segment.js';

/**
 * Pages a host has when a pass adopts the template lines its counts find, if its documents were
 * never split with one (IndexWriter.passTemplates): a batch's worth.
 */
const FIRST_TEMPLATE_PAGES = 500;

/**
 * An indexing pass (IndexWriter.forFeed): the key its pages' links are counted under, the hosts
 * judged for a template during it and those of them that adopted one (IndexWriter.passTemplates).
 */
export interface IndexingPass {
  key: string;
  judged: Set<string>;
  adopted: Set<string>;
}

/** A document of a batch being written: its row's id and its URL. */
interface BatchDocument {
  docId: number;
  url: string;
}

/** Documents of an upgraded file given their display heads after each write. */
const FILL_DISPLAY_HEADS = 2_000;

/**
 * Writes one index file (docs/design/search-engine.md, Atomic batches): batches of documents,
 * staged runs applied whole, removals, and the merges that follow. A batch is one transaction that
 * adds a segment and marks the replaced documents deleted; each commit makes a new generation of
 * the segment list, which the next searcher reads (searcher.ts).
 */
export class IndexWriter {
  constructor(
    private readonly store: SearchIndexStore,
    private readonly segments: IndexSegments,
  ) {}

  /**
   * Adds or replaces documents (by URL) as one batch, `feed` claiming each of them (see
   * feed-keys.ts). A document whose content did not change is left as it is, but claimed. Of
   * several documents with one URL in a batch, the last counts. `analyzed` may hold each
   * document's fields and phrases analyzed beforehand (AnalysisPool, in another thread). With
   * `pass`, the documents' links are counted into that indexing pass (finishPass), and the
   * documents are split with the template lines the indexed documents were split with, the
   * documents whose lines changed side being split again once, when the pass ends (finishPass).
   */
  upsert(
    documents: readonly IndexedDocument[],
    feed: string,
    analyzed?: readonly AnalyzedPage[],
    pass?: IndexingPass,
  ): UpsertResult {
    const byUrl = new Map(documents.map((document, index) => [document.url, { document, index }]));
    const result: UpsertResult = { added: 0, updated: 0, unchanged: 0 };
    const deletions: Posting[] = [];
    const indexed = new Set<number>();
    const built: WrittenSegment[] = [];
    this.store.writeTransaction(() => {
      this.segments.refresh();
      if (pass !== undefined) this.countLinks(pass.key, byUrl.keys(), documents);
      const templates = this.store.templates;
      const splitWith =
        pass === undefined
          ? () => templates.current()
          : (batch: readonly BatchDocument[]) => this.passTemplates(pass, batch, deletions, built);
      const prepared = this.prepareBatch(byUrl.values(), analyzed, result, splitWith, {
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
      const segment = this.writeSegment(prepared);
      if (segment !== undefined) built.push(segment);
    });
    this.segments.written(deletions, built);
    if (pass === undefined) this.resplit(indexed);
    this.fillDisplayHeads();
    if (deletions.length > 0 || built.length > 0) this.mergeWhileNeeded();
    return result;
  }

  /**
   * Inside a pass's batch transaction, its rows counted: the template lines to split the batch
   * with, the sets the indexed documents were split with (docs/design/search-engine.md, Template
   * lines in a pass). A host of the batch whose documents were never split with a template line
   * is judged once in the pass, at its first batch with FIRST_TEMPLATE_PAGES pages or more: it
   * adopts the lines its counts then make template, if any. Its documents of earlier batches
   * holding them are split again now (the batch's own are split by the caller), their new segments
   * and replaced postings added to `built` and `deletions`; judging it once bounds those to its
   * pages at that batch.
   * Without it, a new site's pages would all be indexed twice, split without a template until the
   * pass's end and then again with it; with it, the end splits again only the pages holding a
   * line whose side changed since. The end judges an adopting host's lines as if it had no
   * template before (`pass.adopted`): a line template on its first pages only stays so on 30% of
   * its pages, not 20%, so the pass ends with the template it found before.
   */
  private passTemplates(
    pass: IndexingPass,
    batch: readonly BatchDocument[],
    deletions: Posting[],
    built: WrittenSegment[],
  ): TemplateBlocks {
    const templates = this.store.templates;
    const applied = templates.appliedSets();
    const hosts = new Set(batch.map((document) => pageHostOf(document.url)));
    const candidates = new Set(
      [...hosts].filter(
        (host) =>
          !pass.judged.has(host) && !applied.has(host) && templates.pagesOf(host) >= FIRST_TEMPLATE_PAGES,
      ),
    );
    if (candidates.size === 0) return applied;
    for (const host of candidates) pass.judged.add(host);
    const current = templates.current({ hosts: candidates });
    const ready = new Set([...candidates].filter((host) => (current.get(host)?.size ?? 0) > 0));
    if (ready.size === 0) return applied;
    for (const host of ready) pass.adopted.add(host);
    resplitChanged(
      this.store,
      new Set(batch.map((document) => document.docId)),
      (prepared, replaced) => {
        deletions.push(...replaced);
        const segment = this.writeSegment(prepared);
        if (segment !== undefined) built.push(segment);
      },
      { hosts: ready },
    );
    return templates.appliedSets();
  }

  /**
   * Inside a write transaction: a new searchable segment of `prepared`, its documents placed in
   * it. What it returns holds no postings: a pass-end re-split writes many segments in one
   * transaction, and their postings are in the file once written.
   */
  private writeSegment(prepared: readonly AnalyzedDocument[]): WrittenSegment | undefined {
    if (prepared.length === 0) return undefined;
    const built = buildSegment(this.store.nextSegmentId(), prepared);
    const { id, docIds, fieldLengths, deleted } = built;
    this.store.insertSegment(id, storeSegmentTerms(this.store.termRows, built), deleted);
    docIds.forEach((docId, ordinal) => this.store.placeDocument(docId, id, ordinal));
    return { id, docIds, fieldLengths, deleted };
  }

  /**
   * Indexes again the documents whose template lines changed with the counts (a line now on
   * enough pages of its host, or no longer), in one transaction; `exclude` were just split.
   * `published`: the documents a staged run just published, split when they were staged; those
   * whose display head no longer holds are split again too (resplitStale).
   */
  private resplit(
    exclude: ReadonlySet<number> = new Set(),
    published: readonly number[] = [],
    adoptedInPass: ReadonlySet<string> = new Set(),
  ): void {
    const deletions: Posting[] = [];
    const built: WrittenSegment[] = [];
    const done = new Set(exclude);
    // A segment per chunk of documents split again, all in one transaction: what is analyzed
    // stays bounded however many documents a change of template sends back, and searches see
    // the documents split with the old template or the new one, never some of each.
    const write = (prepared: readonly AnalyzedDocument[], replaced: readonly Posting[]) => {
      for (const document of prepared) done.add(document.docId);
      deletions.push(...replaced);
      const segment = this.writeSegment(prepared);
      if (segment !== undefined) built.push(segment);
    };
    this.store.writeTransaction(() => {
      this.segments.refresh();
      resplitChanged(this.store, exclude, write, { adoptedInPass });
      const stale = resplitStale(this.store, published, done);
      write(stale.prepared, stale.replaced);
      this.persistDeletions(deletions);
    });
    this.segments.written(deletions, built);
  }

  /**
   * Upserts claimed for `feed`, where BatchIndexer writes (kumo index of a bundle or a run): one
   * indexing pass, whose pages take their inbound link counts when it finishes.
   */
  forFeed(feed: string): BatchTarget {
    const pass: IndexingPass = { key: `feed:${randomUUID()}`, judged: new Set(), adopted: new Set() };
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
    this.store.inboundLinks.addPages(
      pass,
      Array.from(urls, (url) => ({ url, targets: linksOf.get(url) ?? [] })),
    );
  }

  /**
   * Ends an indexing pass of upserts: each of its pages takes the count of the pass's pages
   * linking to it, which orders pages with the same text after their language; and the pages
   * holding a line that became template during the pass, or stopped being, are split again, once
   * (docs/design/search-engine.md, Template lines in a pass).
   */
  finishPass(pass: IndexingPass): void {
    this.store.writeTransaction(() => this.store.inboundLinks.write(pass.key));
    this.segments.changed();
    this.resplit(new Set(), [], pass.adopted);
    this.fillDisplayHeads();
    this.mergeWhileNeeded();
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
      const prepared = this.prepareBatch(entries, analyzed, result, () => this.store.templates.current(), {
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
      this.store.insertStagedSegment(
        built.id,
        storeSegmentTerms(this.store.termRows, built),
        built.deleted,
        runKey,
      );
      built.docIds.forEach((docId, ordinal) => {
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
      this.segments.refresh();
      const deletions: Posting[] = [];
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
    this.segments.reload();
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
    /** The template lines to split with, read once the batch's rows (`batch`) are counted. */
    splitWith: (batch: readonly BatchDocument[]) => TemplateBlocks,
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
    const prepared: (BatchDocument & { body: string; fields: readonly AnalyzedText[] })[] = [];
    for (const { document, index } of entries) {
      const stored = storedFormOf(document);
      const hash = contentHashOf(stored, document.lastModifiedIsCrawlTime === true);
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
    // Read after every row of the batch is counted: outside a pass, a site's first batch finds its
    // own template; a pass keeps to the sets its documents were split with until it ends.
    const blocks = splitWith(prepared);
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

  /** Marks a document of a staged segment (not loaded, so not in the segment list) deleted. */
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
    const deletions: Posting[] = [];
    this.store.writeTransaction(() => {
      this.segments.refresh();
      for (const url of new Set(urls)) {
        const existing = this.locateVisible(url);
        if (existing === undefined) continue;
        this.store.deleteDocument(existing.id);
        deletions.push({ segmentId: existing.segmentId, ordinal: existing.ordinal });
      }
      this.persistDeletions(deletions);
    });
    this.segments.written(deletions, []);
    if (deletions.length > 0) {
      this.resplit();
      this.mergeWhileNeeded();
    }
    return deletions.length;
  }

  private persistDeletions(deletions: readonly Posting[]): void {
    for (const [segmentId, flags] of this.segments.deletionFlags(deletions))
      this.store.updateDeleted(segmentId, flags);
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
      if (missing.length > 0) this.segments.forgetSameText();
    });
  }

  /**
   * Merges segments as the merge policy asks, one transaction per merge. A merge that finds the
   * file locked by another writer is left for the next batch: the batch itself is committed.
   */
  mergeWhileNeeded(): void {
    try {
      this.mergeSegmentsNow();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }

  private mergeSegmentsNow(): void {
    for (;;) {
      let merged: { id: number; documents: DocArrays; sources: Segment[] } | undefined;
      this.store.writeTransaction(() => {
        // Chosen under the write lock, from the current state: another process may have deleted
        // documents of these segments, which the merge must not bring back.
        this.segments.refresh();
        const chosen = segmentsToMerge(this.segments.current.map((loaded) => loaded.segment));
        if (chosen === undefined) return;
        const sources = chosen.map((index) => this.segments.current[index]!.segment);
        const id = this.store.nextSegmentId();
        // Term by term from the sources' rows into the new segment's: a merge holds a block of positions.
        const documents = mergeSegments(sources, new TermRowWriter(this.store.termRows, id));
        this.store.insertSegment(id, encodeDocArrays(documents), new Uint8Array(documents.docIds.length));
        documents.docIds.forEach((docId, ordinal) => this.store.placeDocument(docId, id, ordinal));
        // Removed at once, their term rows with them: a search that was reading them meanwhile
        // (another process) finds it out and runs again (Searcher.stillReadable).
        for (const source of sources) this.store.deleteSegment(source.id);
        merged = { id, documents, sources };
      });
      if (merged === undefined) return;
      this.segments.merged(merged.id, merged.documents, merged.sources);
    }
  }
}
