import { parseCrawlUrl } from '../crawler/index.js';

/**
 * At most this many distinct targets of one page are counted: a page linking more (an index of a
 * whole site) says little of any one of them, and a page's set stays small while it is parsed.
 */
export const MAX_TARGETS_PER_PAGE = 2000;

/**
 * The pages a page links to, as the crawler would name them (url-identity.ts: resolved against
 * the page URL, normalized, fragment removed), each once and never the page itself: what the
 * inbound link counts of an indexing pass add up (docs/reference/site-search.md, Pages with the
 * same text).
 */
export class OutgoingLinks {
  private readonly targets = new Set<string>();
  private readonly self: string | undefined;

  constructor(private readonly pageUrl: string | undefined) {
    this.self = pageUrl === undefined ? undefined : withoutFragment(pageUrl);
  }

  /** An element opened: an `a` or `area` with an href to an http(s) page is a link. */
  see(name: string, attributes: Record<string, string>): void {
    if ((name !== 'a' && name !== 'area') || attributes.href === undefined) return;
    if (this.pageUrl === undefined || this.targets.size >= MAX_TARGETS_PER_PAGE) return;
    const target = withoutFragment(attributes.href.trim(), this.pageUrl);
    if (target !== undefined && target !== this.self) this.targets.add(target);
  }

  /** The distinct targets seen, in the order first seen. */
  value(): string[] {
    return [...this.targets];
  }
}

function withoutFragment(raw: string, base?: string): string | undefined {
  const url = parseCrawlUrl(raw, base);
  if (url === undefined) return undefined;
  url.hash = '';
  return url.href;
}
