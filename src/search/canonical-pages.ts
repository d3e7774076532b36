/**
 * Which pages of a bundle give way to their canonical page (docs/reference/crawl-rules.md,
 * Canonical pages): told every indexable page of the bundle in a first pass, it answers the pages
 * whose canonical page is one of them. A bundle of a million pages names a million URLs, so the
 * pages are held as 53-bit hashes of their URLs (8 bytes a page) rather than as strings; only the
 * pages naming another canonical URL, and the redirected ones, are held by more. Two URLs of
 * one hash would make a page give way to a page of another URL only when that URL is the one its
 * canonical names, or keep one of two naming pages of one hash from giving way; at a million
 * pages either happens about once in ten billion bundles.
 */
import { blockHashOf } from '../domain/index.js';

/** A chain of canonical pages longer than this is not followed: its pages stay documents. */
const MAX_CANONICAL_CHAIN = 20;

interface NamingPage {
  url: string;
  canonical: number;
}

export class CanonicalPages {
  /** The hash of the URL each indexable page is indexed under. */
  private readonly indexed: number[] = [];
  /** Requested URL to the URL indexed, by hash, for the pages that were redirected. */
  private readonly redirected = new Map<number, number>();
  /** The pages that name another URL as canonical, by the hash of the URL they are indexed under. */
  private readonly naming = new Map<number, NamingPage>();

  /** An indexable page: the URL requested, the URL it is indexed under, its canonical URL if any. */
  add(requested: string, url: string, canonical: string | undefined): void {
    const hash = blockHashOf(url);
    this.indexed.push(hash);
    if (requested !== url) this.redirected.set(blockHashOf(requested), hash);
    if (canonical !== undefined) this.naming.set(hash, { url, canonical: blockHashOf(canonical) });
  }

  /**
   * The pages (by the URL they are indexed under) whose canonical page is a page of the bundle,
   * reached by following canonicals from page to page. A page whose canonical page is missing
   * stays a document of its own; of pages naming each other in a circle, the shortest URL stays.
   */
  givingWay(): Set<string> {
    const targetOf = this.targetsOfCanonicals();
    const next = (page: number): number | undefined => {
      const canonical = this.naming.get(page)?.canonical;
      const target = canonical === undefined ? undefined : targetOf.get(canonical);
      return target === page ? undefined : target;
    };
    const givingWay = new Set<string>();
    for (const [page, { url }] of this.naming) {
      const path = [page];
      let step = next(page);
      while (step !== undefined && !path.includes(step) && path.length <= MAX_CANONICAL_CHAIN) {
        path.push(step);
        step = next(step);
      }
      if (step === undefined) {
        if (path.length > 1) givingWay.add(url);
      } else if (path.includes(step)) {
        // Every page of a circle names the next one, so each is a naming page with its URL.
        const circle = path.slice(path.indexOf(step)).map((member) => this.naming.get(member)!.url);
        const kept = circle.reduce((best, candidate) =>
          candidate.length < best.length || (candidate.length === best.length && candidate < best)
            ? candidate
            : best,
        );
        if (url !== kept) givingWay.add(url);
      }
    }
    return givingWay;
  }

  /** The canonical URLs that are pages of the bundle, by hash, to the URL each is indexed under. */
  private targetsOfCanonicals(): Map<number, number> {
    const canonicals = new Set<number>();
    for (const { canonical } of this.naming.values()) canonicals.add(canonical);
    const targets = new Map<number, number>();
    if (canonicals.size === 0) return targets;
    // A URL that is a page of its own is that page, even where another page was redirected from it.
    for (const [requested, hash] of this.redirected)
      if (canonicals.has(requested)) targets.set(requested, hash);
    for (const hash of this.indexed) if (canonicals.has(hash)) targets.set(hash, hash);
    return targets;
  }
}
