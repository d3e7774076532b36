import type { SearchIndexStore } from '../storage/search-index-store.js';
import type { Segment } from '../engine/segment.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { TEMPLATE_MIN_PAGES } from '../../domain/index.js';
import type { PhraseRow } from '../storage/document-phrase-rows.js';
import { pageHostOf, type TemplateBlocks } from '../template-blocks.js';
import {
  decodeDocumentPhrases,
  encodeDocumentPhrases,
  type PhraseUnitText,
  storedTextHashOf,
} from './document-phrases.js';
import { ITEMS_PER_PAUSE, type Work } from './work-slices.js';

/** One title part or heading of a document, with the phrases suggest may offer from it. */
interface PhraseUnit {
  /** Hash of its text as template detection counts lines (template-block-hash.ts). */
  hash: number;
  title: boolean;
  phrases: Int32Array;
}

interface DocumentUnits {
  id: number;
  /** Hash of the title and headings the units were cut from (document-phrases.ts). */
  textHash: number;
  host: string;
  units: PhraseUnit[];
}

/**
 * A heading that is the same on at least this share of a host's pages (and on TEMPLATE_MIN_PAGES)
 * is a section label of the site's page layout ("Synopsis", "See Also", "Parameters", 概要), not
 * a topic: like template lines, only lower, since a label is one line of each page it is on.
 */
const LABEL_MIN_SHARE = 0.05;

/** Documents read from the index file per query. */
const ROWS_PER_READ = 500;
/** Phrases cut for documents indexed before format 8 are written back this many at a time. */
const WRITE_BACK_ROWS = 1000;

/** How many documents hold a phrase in their title, and in their title or a heading. */
export interface PhraseFrequency {
  documents: number;
  titles: number;
  /** The shorter phrase it extends (`create` for `create index`), if any (suggest-phrases.ts). */
  head?: string;
}

export interface CountedPhrases {
  phrases: Map<string, PhraseFrequency>;
  /** Phrases only template lines, template title parts and section labels hold. */
  template: Set<string>;
}

/**
 * Document frequencies of the phrases of titles and headings (docs/reference/site-search.md,
 * Suggest), counted once per document over its live documents. The phrases are cut when a
 * document is analyzed and stored with it (document-phrases.ts); they are read once per segment
 * (segments never change) and kept as ids, and a merged segment's documents reuse theirs. A
 * document indexed before format 8 has none stored: its phrases are cut here, once, and written
 * back. Counting is a pass over the live documents, so the template lines, which change as the
 * site does, are applied at counting time: a title part or heading that is template, or a
 * heading that is a section label, counts for nothing. Counting is work in slices
 * (work-slices.ts): a large index never holds the event loop for long.
 */
export class PhraseCounter {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly heads: (string | undefined)[] = [];
  private readonly bySegment = new WeakMap<Segment, (DocumentUnits | undefined)[]>();
  /** The units of the live documents by id, so a merged segment's documents are not decoded again. */
  private byDocument = new Map<number, DocumentUnits>();
  /** Phrases cut here for documents that had none stored, to be written back. */
  private cut: { id: number; segmentId: number; data: Uint8Array }[] = [];

  constructor(private readonly store: SearchIndexStore) {}

  /**
   * The frequencies of the phrases of titles and headings, and the phrases only their template
   * lines, template parts and section labels hold (those words are in the index as any other:
   * suggest must leave them out).
   */
  *count(snapshot: IndexSnapshot, templateBlocks: TemplateBlocks): Work<CountedPhrases> {
    const documents: DocumentUnits[] = [];
    for (const loaded of snapshot.segments) {
      const units = yield* this.unitsOf(loaded);
      units.forEach((unit, ordinal) => {
        if (unit !== undefined && loaded.segment.isLive(ordinal)) documents.push(unit);
      });
    }
    this.writeBack();
    this.byDocument = new Map(documents.map((document) => [document.id, document]));
    yield;
    const labels = yield* labelsOf(documents);
    const seen = new Int32Array(this.texts.length).fill(-1);
    const frequency = new Int32Array(this.texts.length);
    const titleFrequency = new Int32Array(this.texts.length);
    const templateIds = new Set<number>();
    for (let document = 0; document < documents.length; document += 1) {
      if (document % ITEMS_PER_PAUSE === 0) yield;
      const { host, units } = documents[document]!;
      const template = templateBlocks.get(host);
      const hostLabels = labels.get(host);
      for (const unit of units) {
        if (template?.has(unit.hash)) {
          for (const id of unit.phrases) templateIds.add(id);
          continue;
        }
        if (!unit.title && hostLabels?.has(unit.hash)) {
          for (const id of unit.phrases) templateIds.add(id);
          continue;
        }
        // Title parts come first: a phrase of the title is counted there.
        for (const id of unit.phrases) {
          if (seen[id] === document) continue;
          seen[id] = document;
          frequency[id]! += 1;
          if (unit.title) titleFrequency[id]! += 1;
        }
      }
    }
    const template = new Set(
      [...templateIds].filter((id) => frequency[id] === 0).map((id) => this.texts[id]!),
    );
    const result = new Map<string, PhraseFrequency>();
    for (let id = 0; id < frequency.length; id += 1) {
      if (id % (ITEMS_PER_PAUSE * 8) === 0) yield;
      const documentCount = frequency[id]!;
      if (documentCount === 0) continue;
      const head = this.heads[id];
      const counted = { documents: documentCount, titles: titleFrequency[id]! };
      result.set(this.texts[id]!, head === undefined ? counted : { ...counted, head });
    }
    return { phrases: result, template };
  }

  /**
   * The phrase units of a segment's documents, read a few hundred rows at a time. A segment
   * some of whose live documents were not found (merged away or removed meanwhile) is not kept:
   * the next count, of a newer snapshot, reads it again.
   */
  private *unitsOf(loaded: IndexSnapshot['segments'][number]): Work<(DocumentUnits | undefined)[]> {
    const known = this.bySegment.get(loaded.segment);
    if (known !== undefined) return known;
    const { segment } = loaded;
    const units = new Array<DocumentUnits | undefined>(segment.docCount).fill(undefined);
    let found = 0;
    let expected = 0;
    for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1)
      if (segment.isLive(ordinal)) expected += 1;
    for (let from = 0; from < segment.docCount; from += ROWS_PER_READ) {
      const rows = this.store.phrases.rowsOf(segment.id, from, from + ROWS_PER_READ);
      yield;
      for (const [done, row] of rows.entries()) {
        if (segment.docIds[row.ordinal] !== row.id) continue;
        if (segment.isLive(row.ordinal)) found += 1;
        units[row.ordinal] = yield* this.documentUnitsOf(row, segment.id, pageHostOf(row.url));
        if (done % 64 === 63) yield;
      }
      if (this.cut.length >= WRITE_BACK_ROWS) this.writeBack();
    }
    if (found >= expected) this.bySegment.set(segment, units);
    return units;
  }

  /** A document's phrase units, pausing within a document of many headings. */
  private *documentUnitsOf(row: PhraseRow, segmentId: number, host: string): Work<DocumentUnits> {
    let data: Uint8Array | null = row.data;
    if (data === null) {
      data = encodeDocumentPhrases(row.title, row.headings);
      this.cut.push({ id: row.id, segmentId, data });
    }
    const textHash = storedTextHashOf(data);
    const known = this.byDocument.get(row.id);
    if (known?.textHash === textHash) return known;
    const decoded = yield* decodeDocumentPhrases(data);
    const units: PhraseUnit[] = [];
    for (const unit of decoded.units) {
      if (units.length % ITEMS_PER_PAUSE === ITEMS_PER_PAUSE - 1) yield;
      units.push(this.unitOf(unit));
    }
    return { id: row.id, textHash, host, units };
  }

  private unitOf(unit: PhraseUnitText): PhraseUnit {
    const phrases = unit.phrases.map((phrase, index) => {
      let id = this.ids.get(phrase);
      if (id === undefined) {
        id = this.texts.length;
        this.ids.set(phrase, id);
        this.texts.push(phrase);
        const head = unit.heads[index]!;
        this.heads.push(head < 0 ? undefined : unit.phrases[head]);
      }
      return id;
    });
    return { hash: unit.hash, title: unit.title, phrases: Int32Array.from(phrases) };
  }

  /**
   * Keeps the phrases cut here in the index file, so the next start reads them. When another
   * process holds the write lock they are dropped: the next build cuts them again.
   */
  private writeBack(): void {
    if (this.cut.length === 0) return;
    const rows = this.cut;
    this.cut = [];
    try {
      this.store.withoutWaiting(() => this.store.writeTransaction(() => this.store.phrases.putMissing(rows)));
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    }
  }
}

/** Per host, the headings that are section labels (LABEL_MIN_SHARE). */
function* labelsOf(documents: readonly DocumentUnits[]): Work<Map<string, Set<number>>> {
  const pages = new Map<string, number>();
  const counts = new Map<string, Map<number, number>>();
  let done = 0;
  for (const { host, units } of documents) {
    if (++done % ITEMS_PER_PAUSE === 0) yield;
    pages.set(host, (pages.get(host) ?? 0) + 1);
    let hostCounts = counts.get(host);
    if (hostCounts === undefined) counts.set(host, (hostCounts = new Map()));
    for (const hash of new Set(units.filter((unit) => !unit.title).map((unit) => unit.hash)))
      hostCounts.set(hash, (hostCounts.get(hash) ?? 0) + 1);
  }
  const labels = new Map<string, Set<number>>();
  for (const [host, hostCounts] of counts) {
    const threshold = Math.max(
      TEMPLATE_MIN_PAGES,
      Math.ceil(LABEL_MIN_SHARE * (pages.get(host) ?? 0) - 1e-9),
    );
    const hostLabels = new Set(
      [...hostCounts].filter(([, count]) => count >= threshold).map(([hash]) => hash),
    );
    if (hostLabels.size > 0) labels.set(host, hostLabels);
  }
  return labels;
}
