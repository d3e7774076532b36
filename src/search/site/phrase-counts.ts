import type { SearchIndexStore } from '../../store/sqlite/search-index-store.js';
import type { Segment } from '../engine/segment.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { TEMPLATE_MIN_PAGES } from '../../domain/template-block-hash.js';
import { blockHashOf, pageHostOf, titlePartsOf, type TemplateBlocks } from '../template-blocks.js';
import { phrasesOfLine } from './suggest-phrases.js';

/** One title part or heading of a document, with the phrases suggest may offer from it. */
interface PhraseUnit {
  /** Hash of its text as template detection counts lines (template-block-hash.ts). */
  hash: number;
  title: boolean;
  phrases: Int32Array;
}

interface DocumentUnits {
  id: number;
  /** Hash of the title and headings the units were cut from. */
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
 * Suggest), counted once per document over its live documents. Each segment's phrases are cut
 * once (segments never change) and kept as ids; counting them is a pass over the live
 * documents, so the template lines, which change as the site does, are applied at counting time:
 * a title part or heading that is template, or a heading that is a section label, counts for
 * nothing.
 */
export class PhraseCounter {
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly heads: (string | undefined)[] = [];
  private readonly bySegment = new WeakMap<Segment, (DocumentUnits | undefined)[]>();
  /** The units of the live documents by id, so a merged segment's documents are not cut again. */
  private byDocument = new Map<number, DocumentUnits>();

  constructor(private readonly store: SearchIndexStore) {}

  /**
   * The frequencies of the phrases of titles and headings, and the phrases only their template
   * lines, template parts and section labels hold (those words are in the index as any other:
   * suggest must leave them out).
   */
  count(snapshot: IndexSnapshot, templateBlocks: TemplateBlocks): CountedPhrases {
    const documents: DocumentUnits[] = [];
    for (const loaded of snapshot.segments) {
      const units = this.unitsOf(loaded);
      units.forEach((unit, ordinal) => {
        if (unit !== undefined && loaded.segment.isLive(ordinal)) documents.push(unit);
      });
    }
    this.byDocument = new Map(documents.map((document) => [document.id, document]));
    const labels = labelsOf(documents);
    const seen = new Int32Array(this.texts.length).fill(-1);
    const frequency = new Int32Array(this.texts.length);
    const titleFrequency = new Int32Array(this.texts.length);
    const templateIds = new Set<number>();
    documents.forEach(({ host, units }, document) => {
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
    });
    const template = new Set(
      [...templateIds].filter((id) => frequency[id] === 0).map((id) => this.texts[id]!),
    );
    const result = new Map<string, PhraseFrequency>();
    frequency.forEach((documentCount, id) => {
      if (documentCount === 0) return;
      const head = this.heads[id];
      const counted = { documents: documentCount, titles: titleFrequency[id]! };
      result.set(this.texts[id]!, head === undefined ? counted : { ...counted, head });
    });
    return { phrases: result, template };
  }

  /** The title parts and headings of a segment's documents, cut into phrases once. */
  private unitsOf(loaded: IndexSnapshot['segments'][number]): (DocumentUnits | undefined)[] {
    const known = this.bySegment.get(loaded.segment);
    if (known !== undefined) return known;
    const headings = new Map(
      this.store.headingsOf(loaded.segment.id).map((row) => [row.ordinal, row.headings]),
    );
    const units = loaded.summaries.map((summary, ordinal): DocumentUnits | undefined => {
      if (summary === undefined) return undefined;
      const text = headings.get(ordinal) ?? '';
      const textHash = blockHashOf(`${summary.title}\n${text}`);
      const known = this.byDocument.get(summary.id);
      if (known?.textHash === textHash) return known;
      const lines = text.split('\n').filter((line) => line !== '');
      return {
        id: summary.id,
        textHash,
        host: pageHostOf(summary.url),
        units: [
          ...titlePartsOf(summary.title).map((part) => this.unitOf(part, true)),
          ...lines.map((line) => this.unitOf(line, false)),
        ],
      };
    });
    this.bySegment.set(loaded.segment, units);
    return units;
  }

  private unitOf(line: string, title: boolean): PhraseUnit {
    const phrases = phrasesOfLine(line).map(({ phrase, head }) => {
      let id = this.ids.get(phrase);
      if (id === undefined) {
        id = this.texts.length;
        this.ids.set(phrase, id);
        this.texts.push(phrase);
        this.heads.push(head);
      }
      return id;
    });
    return { hash: blockHashOf(line), title, phrases: Int32Array.from(phrases) };
  }
}

/** Per host, the headings that are section labels (LABEL_MIN_SHARE). */
function labelsOf(documents: readonly DocumentUnits[]): Map<string, Set<number>> {
  const pages = new Map<string, number>();
  const counts = new Map<string, Map<number, number>>();
  for (const { host, units } of documents) {
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
