import type { SearchIndexStore } from './storage/search-index-store.js';
import { type IndexStatistics, statisticsOf } from './engine/matcher.js';
import {
  CURRENT_POSTINGS_FORMAT,
  decodeDocArrays,
  type DocArrays,
  type PostingsFormat,
} from './engine/segment-codec.js';
import type { Segment } from './engine/segment.js';
import { StoredSegment } from './engine/stored-segment.js';
import { SameTextGroups } from './same-text-copies.js';
import type { IndexSnapshot, LoadedSegment } from './search-index-types.js';

/** Where a document's posting sits: the segment and its ordinal there. */
export interface Posting {
  segmentId: number;
  ordinal: number;
}

/**
 * A segment just written, as the generation takes it: its documents' arrays and deletion flags.
 * Its terms are in the file; the postings it was built from are not kept.
 */
export interface WrittenSegment extends DocArrays {
  id: number;
  deleted: Uint8Array;
}

/**
 * The segments of an index file (their documents' arrays and deletion flags in memory, their
 * terms read from the file), as the writer leaves them and searches read them
 * (docs/design/search-engine.md, Segments): each change makes a new generation, whose
 * snapshot never changes. Another process's commits (kumo index while kumo serve runs) are picked
 * up before the next snapshot.
 */
export class IndexSegments {
  private loaded: LoadedSegment[] = [];
  private statistics: IndexStatistics = statisticsOf([]);
  private generation = 0;
  private seenDataVersion: number;
  /** The groups of pages with the same text, for the segment list they were found in. */
  private sameText: { segments: readonly LoadedSegment[] | undefined; groups: SameTextGroups } = {
    segments: undefined,
    groups: SameTextGroups.none,
  };

  constructor(private readonly store: SearchIndexStore) {
    this.seenDataVersion = store.dataVersion();
    this.reload();
  }

  /**
   * The current generation, after picking up other processes' changes, with the groups of pages
   * with the same main text (found once per generation, by the first search of it).
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

  /** The segments as they stand, without picking up other processes' changes (the writer's view). */
  get current(): readonly LoadedSegment[] {
    return this.loaded;
  }

  /** Reloads what another connection changed: new and merged segments, deletion marks. */
  refresh(): void {
    // data_version changes with other connections' commits only, never with this one's.
    const version = this.store.dataVersion();
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    this.reload();
  }

  /** Reads the segment list again from the file, keeping the segments already loaded. */
  reload(): void {
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

  /**
   * After a committed write: deletion marks and the new segments, read from the file from now on
   * (the built segments' terms are not kept in memory).
   */
  written(deletions: readonly Posting[], written: readonly WrittenSegment[]): void {
    this.markDeleted(deletions);
    if (written.length > 0)
      this.loaded = [
        ...this.loaded,
        ...written.map((segment) => this.loadedOf(this.storedOf(segment.id, segment, segment.deleted))),
      ];
    if (deletions.length > 0 || written.length > 0) this.changed();
  }

  /** After a committed merge: segment `id` of `merged` documents in place of the segments it was made of. */
  merged(id: number, merged: DocArrays, sources: readonly Segment[]): void {
    const removed = new Set(sources.map((source) => source.id));
    this.loaded = [
      ...this.loaded.filter((loaded) => !removed.has(loaded.segment.id)),
      this.loadedOf(this.storedOf(id, merged)),
    ];
    this.changed();
  }

  /** The deletion flags of loaded segments with `deletions` marked, by segment, to be stored. */
  deletionFlags(deletions: readonly Posting[]): Map<number, Uint8Array> {
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
    return bySegment;
  }

  /** The groups of pages with the same text are found again (display heads brought main text keys). */
  forgetSameText(): void {
    this.sameText = { segments: undefined, groups: SameTextGroups.none };
  }

  /**
   * After any change: new statistics, and a new segment list even when only deletion marks
   * changed, since data derived from a snapshot (titles, vocabulary) is cached by its list.
   */
  changed(): void {
    this.loaded = [...this.loaded];
    this.statistics = statisticsOf(this.loaded.map((loaded) => loaded.segment));
    this.generation += 1;
  }

  private markDeleted(deletions: readonly Posting[]): void {
    for (const { segmentId, ordinal } of deletions)
      this.loaded.find((loaded) => loaded.segment.id === segmentId)?.segment.markDeleted(ordinal);
  }

  private loadSegment(id: number): LoadedSegment {
    const stored = this.store.segment(id);
    if (stored === undefined) throw new Error(`index segment ${id} vanished while loading`);
    const arrays = decodeDocArrays(stored.data);
    return this.loadedOf(this.storedOf(id, arrays, new Uint8Array(stored.deleted), arrays.postingsFormat));
  }

  /**
   * Segment `id` of the file, its terms read from the file on demand; a segment this process
   * wrote is in the current postings format.
   */
  private storedOf(
    id: number,
    { docIds, fieldLengths }: DocArrays,
    deleted?: Uint8Array,
    postingsFormat: PostingsFormat = CURRENT_POSTINGS_FORMAT,
  ): StoredSegment {
    return new StoredSegment(
      id,
      docIds,
      fieldLengths,
      deleted ?? new Uint8Array(docIds.length),
      this.store.termRows,
      postingsFormat,
    );
  }

  /** The segment with its documents' columns by ordinal, kept in the file or computed once. */
  private loadedOf(segment: Segment): LoadedSegment {
    return { segment, ...this.store.segmentColumns(segment.id, segment.docIds) };
  }
}
