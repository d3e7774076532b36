import type { CrawlSettings } from '../domain/index.js';
import { kindByExtension } from './file-kinds.js';
import { SeedSites } from './seed-sites.js';

/** Why a URL is outside a run; undefined when it is inside. */
export type OutOfScopeReason = 'too_long' | 'denied' | 'not_allowed' | 'file_type';

/** Why a URL is in or out of a run, with the pattern that decided it (the console's pattern tester). */
export interface ScopeVerdict {
  /** undefined: the URL is crawled (within the depth limit). */
  outOfScope: OutOfScopeReason | undefined;
  /** The deny pattern that matched, or the allow pattern that let the URL in. */
  pattern?: string;
  /** Allowed because its host is a seed host or a subdomain of one (no allow patterns). */
  bySeedHost?: boolean;
}

/**
 * Longer URLs are not followed: no real page needs one, and even a linear-time pattern runs in
 * time that grows with the URL (a crawler trap can grow URLs without end;
 * docs/design/url-patterns.md, URL patterns).
 */
export const MAX_URL_CHARS = 8192;

/**
 * The URL rules of a run (docs/api.md, Instant crawl): explicit allow patterns, or the seed hosts
 * and their subdomains on the seed's port (SeedSites); deny patterns win; PDF / office files by
 * extension unless included.
 */
export class CrawlScope {
  private readonly seedSites: SeedSites;

  constructor(private readonly settings: CrawlSettings) {
    this.seedSites = new SeedSites(settings.seedUrls);
  }

  check(url: URL): OutOfScopeReason | undefined {
    const href = url.href;
    if (href.length > MAX_URL_CHARS) return 'too_long';
    for (const pattern of this.settings.denyPatterns) if (pattern.test(href)) return 'denied';
    if (this.settings.allowPatterns.length > 0) {
      if (!this.settings.allowPatterns.some((pattern) => pattern.test(href))) return 'not_allowed';
    } else if (!this.seedSites.hasHostOrSubdomain(url)) {
      return 'not_allowed';
    }
    const kind = kindByExtension(url.pathname);
    if (kind === 'pdf' && !this.settings.includePdf) return 'file_type';
    if (kind === 'office' && !this.settings.includeOffice) return 'file_type';
    return undefined;
  }

  /** check() with the reason spelled out; slower (it tries every pattern), for one URL at a time. */
  explain(url: URL): ScopeVerdict {
    const outOfScope = this.check(url);
    const href = url.href;
    if (outOfScope === 'denied') {
      return {
        outOfScope,
        pattern: this.settings.denyPatterns.find((p) => p.test(href))!.written,
      };
    }
    if (outOfScope !== undefined) return { outOfScope };
    const allowedBy = this.settings.allowPatterns.find((pattern) => pattern.test(href));
    return allowedBy ? { outOfScope, pattern: allowedBy.written } : { outOfScope, bySeedHost: true };
  }

  allowsDepth(depth: number): boolean {
    return this.settings.depthLimit === null || depth <= this.settings.depthLimit;
  }
}
