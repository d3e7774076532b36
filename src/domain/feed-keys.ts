import path from 'node:path';

/*
 * Keys of the feeds that put documents into a search index: each indexed document records the
 * feeds that claim it, and a scheduled run removes a document it did not reach only when its own
 * setting's claim was the last one (docs/api.md, Search feeding).
 */

/**
 * The claim of documents no known feed put there: those of an index file written before claims
 * were recorded, and those only a deleted setting held (docs/operations.md, Upgrading). Any
 * other feed's claim replaces it.
 */
export const LEGACY_FEED = 'legacy';

/** The runs of a crawl service setting. */
export function settingFeed(serviceSettingId: number): string {
  return `setting:${serviceSettingId}`;
}

/** The setting id of a `setting:` key, or undefined for another kind of feed. */
export function settingOfFeed(feed: string): number | undefined {
  const match = /^setting:([1-9]\d*)$/.exec(feed);
  return match === null ? undefined : Number(match[1]);
}

/** `kumo index --run N`: the bundle of instant crawl request N. */
export function instantRunFeed(instantCrawlRequestId: number): string {
  return `run:${instantCrawlRequestId}`;
}

/** `kumo index FILE|DIR`: a bundle on disk, by its absolute path as given. */
export function bundleFeed(bundlePath: string): string {
  return `bundle:${path.resolve(bundlePath)}`;
}
