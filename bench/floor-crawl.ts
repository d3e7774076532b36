/**
 * The floor of a crawl (bench:crawl): the least work any crawler of the site must do, measured in
 * the same run as Kumo's crawl. Breadth first from the seed with Kumo's own fetcher (undici,
 * kept-alive connections) and Kumo's own link extraction (htmlparser2, html-extract.ts), at the
 * same concurrency, within the seed's origin; nothing is stored, no robots.txt, no pacing.
 * Kumo's pages/s over this one is the share of the floor it reaches.
 */
import { type HttpFetcher, extractPage } from '../src/crawler/engine.js';

export interface FloorRun {
  pages: number;
  seconds: number;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Crawls every HTML page reachable from `seed` in its origin, `concurrency` requests at a time. */
export async function floorCrawl(seed: string, fetcher: HttpFetcher, concurrency: number): Promise<FloorRun> {
  const origin = new URL(seed).origin;
  const seen = new Set<string>([seed]);
  const queue: string[] = [seed];
  let pages = 0;
  const started = performance.now();
  const fetchOne = async (url: string) => {
    const response = await fetcher.fetchHop({ url, headers: {}, signal: new AbortController().signal });
    if (response.status !== 200 || !(response.headers['content-type'] ?? '').includes('html')) {
      await response.discard();
      return;
    }
    const html = (await response.readBody(MAX_BODY_BYTES)).toString('utf8');
    pages += 1;
    const page = extractPage(html);
    const base = page.baseHref === undefined ? url : new URL(page.baseHref, url).href;
    for (const link of page.links) {
      let target: URL;
      try {
        target = new URL(link.href, base);
      } catch {
        continue;
      }
      target.hash = '';
      if (target.origin !== origin || seen.has(target.href)) continue;
      seen.add(target.href);
      queue.push(target.href);
    }
  };
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      while (active < concurrency && queue.length > 0) {
        active += 1;
        fetchOne(queue.shift()!).then(() => {
          active -= 1;
          if (active === 0 && queue.length === 0) resolve();
          else pump();
        }, reject);
      }
    };
    pump();
  });
  return { pages, seconds: (performance.now() - started) / 1000 };
}
