/**
 * The clicks of a service's documents by id, for a sort by clicks (docs/design/search-engine.md,
 * Segments): the clicked URLs are few beside the hits, so each is looked up by its URL rather than
 * each hit's URL. A URL's id holds for a generation of the index, and the counts for as long as
 * no click changes them, so a generation looks each clicked URL up once, and a sort with no click
 * since the last reads the counts it built then.
 */
import type { IndexSnapshot } from '../search-index-types.js';

/** Where the clicks come from: each clicked URL with its count, and when they last changed. */
export interface ClickSource {
  clickedUrls(): Iterable<[string, number]>;
  readonly clicksVersion: number;
}

interface GenerationClicks {
  /** Each clicked URL's document id in the generation, null when it has none. */
  ids: Map<string, number | null>;
  counts: Map<number, number>;
  version: number;
}

export class ClickedDocuments {
  private readonly generations = new WeakMap<IndexSnapshot['segments'], GenerationClicks>();

  constructor(
    private readonly clicks: ClickSource,
    private readonly documentIdOf: (url: string) => number | undefined,
  ) {}

  /** The clicks counted on each clicked document of the generation, by id. */
  countsOf(snapshot: IndexSnapshot): ReadonlyMap<number, number> {
    let generation = this.generations.get(snapshot.segments);
    if (generation === undefined) {
      generation = { ids: new Map(), counts: new Map(), version: -1 };
      this.generations.set(snapshot.segments, generation);
    }
    const version = this.clicks.clicksVersion;
    if (generation.version === version) return generation.counts;
    const counts = new Map<number, number>();
    for (const [url, clicks] of this.clicks.clickedUrls()) {
      let id = generation.ids.get(url);
      if (id === undefined) {
        id = this.documentIdOf(url) ?? null;
        generation.ids.set(url, id);
      }
      if (id !== null) counts.set(id, clicks);
    }
    generation.counts = counts;
    generation.version = version;
    return counts;
  }
}
