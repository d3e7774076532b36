import type { SearchIndexStore } from '../storage/search-index-store.js';
import type { Segment } from '../engine/segment.js';
import type { IndexSnapshot } from '../search-index-types.js';
import { TEMPLATE_MIN_PAGES } from '../../domain/index.js';
import type { PhraseRow } from '../storage/document-phrase-rows.js';
import { pageHostOf, type TemplateBlocks } from '../template-blocks.js';
import { PhraseTexts } from './phrase-texts.js';
import {
  type PhraseUnitIds,
  type SegmentPhraseUnits,
  SegmentPhraseUnitsBuilder,
} from './segment-phrase-units.js';
import {
  decodeDocumentPhrases,
  encodeDocumentPhrases,
  type PhraseUnitText,
  storedTextHashOf,
} from './document-phrases.js';
import { ITEMS_PER_PAUSE, type Work } from './work-slices.js';

/**
 * A heading that is the same on at least this share of a host's pages (and on TEMPLATE_MIN_PAGES)
 * is a section label of the site's page layout ("Synopsis", "See Also", "Parameters", 概要), not
 * a topic: like template lines, only lower, since a label is one line of each page it is on.
 */
const LABEL_MIN_SHARE = 0.05;

/** Document ids matched between two points where the work may pause. */
const IDS_PER_PAUSE = 8192;
/** Documents read from the index file per query. */
const ROWS_PER_READ = 500;
/** Phrases cut for documents indexed before format 8 are written back this many at a time. */
const WRITE_BACK_ROWS = 1000;

/**
 * The phrases of titles and headings counted, by id: how many live documents hold each in their
 * title or a heading, and in their title. Arrays, not a map of objects: a site of a million pages
 * has a million phrases.
 */
export interface CountedPhrases {
  /** Each phrase's text by id; ids stay the same for the life of the counter. */
  texts: PhraseTexts;
  /** The id of the shorter phrase each extends (`create` for `create index`), -1 for none (suggest-phrases.ts). */
  heads: readonly number[];
  /** Documents holding each phrase (0 for a phrase no live document holds outside its template). */
  documents: Int32Array;
  /** Documents holding each phrase in their title. */
  titles: Int32Array;
  /** Phrases only template lines, template title parts and section labels hold. */
  template: Set<string>;
}

/**
 * Document frequencies of the phrases of titles and headings (docs/reference/site-search.md,
 * Suggest), counted once per document over its live documents. The phrases are cut when a
 * document is analyzed and stored with it (document-phrases.ts); they are read once per segment
 * (segments never change) and kept as ids in typed arrays (segment-phrase-units.ts), and a merged
 * segment's documents reuse theirs. A document indexed before format 8 has none stored: its
 * phrases are cut here, once, and written back. Counting is a pass over the live documents, so
 * the template lines, which change as the site does, are applied at counting time: a title part
 * or heading that is template, or a heading that is a section label, counts for nothing.
 * Counting is work in slices (work-slices.ts): a large index never holds the event loop for long.
 */
export class PhraseCounter {
  private readonly texts = new PhraseTexts();
  private readonly heads: number[] = [];
  private readonly hostIds = new Map<string, number>();
  private readonly hostNames: string[] = [];
  /**
   * The units of the last count's segments, by segment id (a segment never changes): a segment
   * all of whose live documents were found is not read again, and a merged segment's documents
   * are copied from theirs.
   */
  private counted = new Map<number, CountedSegment>();
  /** Phrases cut here for documents that had none stored, to be written back. */
  private cut: { id: number; segmentId: number; data: Uint8Array }[] = [];

  constructor(private readonly store: SearchIndexStore) {}

  /**
   * The frequencies of the phrases of titles and headings, and the phrases only their template
   * lines, template parts and section labels hold (those words are in the index as any other:
   * suggest must leave them out).
   */
  *count(snapshot: IndexSnapshot, templateBlocks: TemplateBlocks): Work<CountedPhrases> {
    const segments: { segment: Segment; units: SegmentPhraseUnits }[] = [];
    const counted = new Map<number, CountedSegment>();
    // The last count's segments this snapshot no longer has: a merge's sources, whose documents
    // a new segment may hold.
    const departed = [...this.counted].filter(
      ([id]) => !snapshot.segments.some(({ segment }) => segment.id === id),
    );
    for (const loaded of snapshot.segments) {
      const known = this.counted.get(loaded.segment.id);
      // A segment never changes, but its id may be given again once it is gone: the same ids
      // array is the same segment.
      const same = known?.docIds === loaded.segment.docIds;
      const read =
        same && known.complete
          ? known
          : yield* this.unitsOf(
              loaded.segment,
              departed.map(([, segment]) => segment),
            );
      counted.set(loaded.segment.id, read);
      segments.push({ segment: loaded.segment, units: read.units });
    }
    this.writeBack();
    this.counted = counted;
    yield;
    const labels = yield* labelsOf(segments, this.hostNames.length);
    const templates = this.hostNames.map((host) => templateBlocks.get(host));
    const seen = new Int32Array(this.texts.size).fill(-1);
    const frequency = new Int32Array(this.texts.size);
    const titleFrequency = new Int32Array(this.texts.size);
    const templateIds = new Set<number>();
    let document = 0;
    for (const { segment, units } of segments) {
      for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
        if (!segment.isLive(ordinal) || !units.has(ordinal)) continue;
        document += 1;
        if (document % ITEMS_PER_PAUSE === 0) yield;
        const host = units.hosts[ordinal]!;
        const template = templates[host];
        const hostLabels = labels[host];
        for (let unit = units.unitStarts[ordinal]!; unit < units.unitStarts[ordinal + 1]!; unit += 1) {
          const hash = units.unitHashes[unit]!;
          const title = units.unitTitles[unit] === 1;
          const from = units.phraseStarts[unit]!;
          const to = units.phraseStarts[unit + 1]!;
          if (template?.has(hash) === true || (!title && hostLabels?.has(hash) === true)) {
            for (let index = from; index < to; index += 1) templateIds.add(units.phraseIds[index]!);
            continue;
          }
          // Title parts come first: a phrase of the title is counted there.
          for (let index = from; index < to; index += 1) {
            const id = units.phraseIds[index]!;
            if (seen[id] === document) continue;
            seen[id] = document;
            frequency[id]! += 1;
            if (title) titleFrequency[id]! += 1;
          }
        }
      }
    }
    const template = new Set(
      [...templateIds].filter((id) => frequency[id] === 0).map((id) => this.texts.textOf(id)),
    );
    return { texts: this.texts, heads: this.heads, documents: frequency, titles: titleFrequency, template };
  }

  /**
   * The phrase units of a segment's documents, read a few hundred rows at a time; a document the
   * last count read with the same text is copied from there instead of decoded. A segment some
   * of whose live documents were not found (merged away or removed meanwhile) is not complete:
   * the next count, of a newer snapshot, reads it again.
   */
  private *unitsOf(segment: Segment, departed: readonly CountedSegment[]): Work<CountedSegment> {
    const earlier = yield* earlierCopies(segment, departed);
    const builder = new SegmentPhraseUnitsBuilder(segment.docCount);
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
        yield* this.addDocument(builder, row, segment.id, earlier?.of(row.ordinal));
        if (done % 64 === 63) yield;
      }
      if (this.cut.length >= WRITE_BACK_ROWS) this.writeBack();
    }
    return { docIds: segment.docIds, units: builder.build(), complete: found >= expected };
  }

  /** A document's phrase units, pausing within a document of many headings. */
  private *addDocument(
    builder: SegmentPhraseUnitsBuilder,
    row: PhraseRow,
    segmentId: number,
    earlier: { units: SegmentPhraseUnits; ordinal: number } | undefined,
  ): Work<void> {
    let data: Uint8Array | null = row.data;
    if (data === null) {
      data = encodeDocumentPhrases(row.title, row.headings);
      this.cut.push({ id: row.id, segmentId, data });
    }
    const textHash = storedTextHashOf(data);
    if (earlier !== undefined && earlier.units.textHashes[earlier.ordinal] === textHash) {
      builder.copyDocument(row.ordinal, earlier.units, earlier.ordinal);
      return;
    }
    const decoded = yield* decodeDocumentPhrases(data);
    const units: PhraseUnitIds[] = [];
    for (const unit of decoded.units) {
      if (units.length % ITEMS_PER_PAUSE === ITEMS_PER_PAUSE - 1) yield;
      units.push({ hash: unit.hash, title: unit.title, phrases: this.phraseIdsOf(unit) });
    }
    builder.addDocument(row.ordinal, textHash, this.hostIdOf(pageHostOf(row.url)), units);
  }

  private phraseIdsOf(unit: PhraseUnitText): Int32Array {
    const ids = Int32Array.from(unit.phrases, (phrase) => this.texts.idOf(phrase, () => this.heads.push(-2)));
    // A phrase's head is the one its first unit gave it, once every phrase of the unit has an id.
    ids.forEach((id, index) => {
      if (this.heads[id] !== -2) return;
      const head = unit.heads[index]!;
      this.heads[id] = head < 0 ? -1 : ids[head]!;
    });
    return ids;
  }

  private hostIdOf(host: string): number {
    let id = this.hostIds.get(host);
    if (id === undefined) {
      id = this.hostNames.length;
      this.hostIds.set(host, id);
      this.hostNames.push(host);
    }
    return id;
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

/** Where an earlier count holds a document, by its ordinal in the segment being read. */
interface EarlierCopies {
  of(ordinal: number): { units: SegmentPhraseUnits; ordinal: number } | undefined;
}

/** A segment's units as a count read them, with the ids of its documents by ordinal. */
interface CountedSegment {
  docIds: Uint32Array;
  units: SegmentPhraseUnits;
  /** Whether every live document of the segment was found when it was read. */
  complete: boolean;
}

/**
 * Where the segments a merge took away (`departed`, as the last count read them) hold the
 * documents of the segment the merge made, by its ordinals; undefined when they hold none. In
 * slices: a merged segment may hold a million documents.
 */
function* earlierCopies(
  segment: Segment,
  departed: readonly CountedSegment[],
): Work<EarlierCopies | undefined> {
  if (departed.length === 0) return undefined;
  const ordinalOf = new Map<number, number>();
  for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
    if (ordinal % IDS_PER_PAUSE === IDS_PER_PAUSE - 1) yield;
    ordinalOf.set(segment.docIds[ordinal]!, ordinal);
  }
  const source = new Int32Array(segment.docCount).fill(-1);
  const sourceOrdinal = new Uint32Array(segment.docCount);
  let copies = 0;
  for (const [index, { docIds, units }] of departed.entries()) {
    for (let ordinal = 0; ordinal < docIds.length; ordinal += 1) {
      if (ordinal % IDS_PER_PAUSE === IDS_PER_PAUSE - 1) yield;
      const target = ordinalOf.get(docIds[ordinal]!);
      if (target === undefined || !units.has(ordinal)) continue;
      source[target] = index;
      sourceOrdinal[target] = ordinal;
      copies += 1;
    }
  }
  if (copies === 0) return undefined;
  return {
    of: (ordinal) => {
      const from = source[ordinal]!;
      return from < 0 ? undefined : { units: departed[from]!.units, ordinal: sourceOrdinal[ordinal]! };
    },
  };
}

/** Per host id, the headings that are section labels (LABEL_MIN_SHARE). */
function* labelsOf(
  segments: readonly { segment: Segment; units: SegmentPhraseUnits }[],
  hostCount: number,
): Work<(Set<number> | undefined)[]> {
  const pages = new Int32Array(hostCount);
  const counts: Map<number, number>[] = Array.from({ length: hostCount }, () => new Map());
  const headings = new Set<number>();
  let done = 0;
  for (const { segment, units } of segments) {
    for (let ordinal = 0; ordinal < segment.docCount; ordinal += 1) {
      if (!segment.isLive(ordinal) || !units.has(ordinal)) continue;
      if (++done % ITEMS_PER_PAUSE === 0) yield;
      const host = units.hosts[ordinal]!;
      pages[host]! += 1;
      headings.clear();
      for (let unit = units.unitStarts[ordinal]!; unit < units.unitStarts[ordinal + 1]!; unit += 1)
        if (units.unitTitles[unit] === 0) headings.add(units.unitHashes[unit]!);
      const hostCounts = counts[host]!;
      for (const hash of headings) hostCounts.set(hash, (hostCounts.get(hash) ?? 0) + 1);
    }
  }
  return counts.map((hostCounts, host) => {
    const threshold = Math.max(TEMPLATE_MIN_PAGES, Math.ceil(LABEL_MIN_SHARE * pages[host]! - 1e-9));
    const hostLabels = new Set(
      [...hostCounts].filter(([, count]) => count >= threshold).map(([hash]) => hash),
    );
    return hostLabels.size > 0 ? hostLabels : undefined;
  });
}
