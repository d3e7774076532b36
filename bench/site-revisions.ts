/**
 * Revised pages of a bench site (bench:cluster's re-crawls, cluster-deltas.ts): the parent asks
 * for a revision covering a share of the pages, and the site answers each page of that share with
 * a paragraph naming the revision, as a site whose pages were edited since the last crawl. The
 * share is chosen by a hash of the page's path, so a smaller share is part of every larger one.
 */
import { createHash } from 'node:crypto';

export interface Revision {
  /** 0 before any revision. */
  number: number;
  /** The share of pages revised, 0 to 1. */
  share: number;
  /** When it was made, as HTTP's Last-Modified says it. */
  modified: string;
}

let current: Revision = { number: 0, share: 0, modified: new Date(0).toUTCString() };

export function revise(number: number, share: number): void {
  current = { number, share, modified: new Date().toUTCString() };
}

/** The revision a page is answered with, or undefined when it is as first served. */
export function revisionOf(path: string): Revision | undefined {
  if (current.number === 0) return undefined;
  const point = createHash('sha1').update(path).digest().readUInt32BE(0) / 0x1_0000_0000;
  return point < current.share ? current : undefined;
}

/** The HTML with the revision's paragraph before its body's end. */
export function revisedHtml(body: Buffer, revision: Revision): Buffer {
  const html = body.toString('utf8');
  const end = html.lastIndexOf('</body>');
  const paragraph = `<p>Revision ${revision.number} rewrote this page: kumorevision${revision.number}.</p>`;
  return Buffer.from(end < 0 ? `${html}${paragraph}` : `${html.slice(0, end)}${paragraph}${html.slice(end)}`);
}
