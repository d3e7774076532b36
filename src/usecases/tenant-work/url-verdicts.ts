import { CrawlScope, type OutOfScopeReason } from '../../crawler/index.js';
import type { InstantCrawlerSetting } from '../../domain/schemas.js';
import { resolveCrawlSettings } from '../../domain/index.js';

/** Whether a URL would be crawled by a setting, and what decided it (docs/console.md, Setting
 * editor).
 */
export interface UrlVerdict {
  url: string;
  /** `crawled`, a reason of the crawl scope, or why the text is not a URL the crawler fetches. */
  verdict: 'crawled' | OutOfScopeReason | 'not_a_url' | 'not_http';
  /** The deny pattern that matched, or the allow pattern that let it in; null otherwise. */
  pattern: string | null;
}

/** What the crawl scope of a valid setting says of each URL (depth aside: it depends on the links). */
export function urlVerdicts(setting: InstantCrawlerSetting, urls: readonly string[]): UrlVerdict[] {
  const scope = new CrawlScope(resolveCrawlSettings(setting));
  return urls.map((text) => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return { url: text, verdict: 'not_a_url', pattern: null };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { url: url.href, verdict: 'not_http', pattern: null };
    }
    const explained = scope.explain(url);
    return {
      url: url.href,
      verdict: explained.outOfScope ?? 'crawled',
      pattern: explained.pattern ?? null,
    };
  });
}
