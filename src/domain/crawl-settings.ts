import type { InstantCrawlerSetting } from './crawl-setting-schema.js';
import type { FieldError } from './field-error.js';
import { MAX_URL_PATTERN_LENGTH, MAX_URL_PATTERNS, type UrlPattern } from './url-pattern.js';
import { compileFieldPattern, urlPatternProblem } from './url-pattern-problem.js';
import { httpUrlProblem } from './http-url.js';

export const LATEST_SETTING_VERSION = '1';
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * An InstantCrawlerSetting with every default applied (docs/reference/crawl-settings.md, Fields),
 * patterns compiled.
 */
export interface CrawlSettings {
  seedUrls: string[];
  /** Explicit allow patterns; when empty the scope is the seeds' sites (src/crawler/seed-sites.ts). */
  allowPatterns: UrlPattern[];
  denyPatterns: UrlPattern[];
  depthLimit: number | null;
  documentsLimit: number | null;
  concurrency: number;
  delaySeconds: number;
  obeyRobots: boolean;
  keepQuery: boolean;
  keepFragment: boolean;
  includePdf: boolean;
  includeOffice: boolean;
  collectObjects: boolean;
  collectUrlList: boolean;
  collectLinkList: boolean;
  userAgent: string | null;
  language: string | null;
  timezone: string | null;
  authorization: { user: string; password: string; urlPattern: UrlPattern | null } | null;
  screenshot: { width: number; height: number; fullPage: boolean } | null;
  waitType: number;
  executionTimeoutSeconds: number;
  /** Read the sitemaps of the seeds' sites (robots.txt `Sitemap:` lines, else /sitemap.xml). */
  readsSitemaps: boolean;
  /** Sitemap files the setting lists, read whatever readsSitemaps says. */
  sitemapUrls: string[];
  /**
   * Days a stored copy may be kept without a request when its sitemap lastmod is older than its
   * last fetch; 0 never (docs/reference/crawl-rules.md, Conditional re-crawls).
   */
  sitemapLastmodSkipDays: number;
}

/** What a run's setting defaults depend on besides the setting itself. */
export interface SettingContext {
  /**
   * The run feeds a search service (a scheduled setting with one): sitemaps are read unless the
   * setting says not to (docs/reference/crawl-settings.md, sitemaps).
   */
  feedsSearch: boolean;
}

export const DEFAULT_EXECUTION_TIMEOUT_SECONDS = 86400;
export const DEFAULT_CONCURRENCY = 8;

/** Checks the rules the JSON schema cannot express; each error names the field path. */
export function checkCrawlSetting(setting: InstantCrawlerSetting, fieldPrefix = 'setting'): FieldError[] {
  const errors: FieldError[] = [];
  setting.seed_urls.forEach((raw, index) => {
    const reason = httpUrlProblem(raw, '; use authorizations');
    if (reason) errors.push({ field: `${fieldPrefix}.seed_urls[${index}]`, reason });
  });
  for (const key of ['allow_urls_patterns', 'deny_urls_patterns'] as const) {
    const patterns = setting[key];
    // The schema states both limits too; checked again for callers that skip it.
    if (patterns && patterns.length > MAX_URL_PATTERNS) {
      errors.push({ field: `${fieldPrefix}.${key}`, reason: `at most ${MAX_URL_PATTERNS} patterns` });
      continue;
    }
    patterns?.forEach((pattern, index) => {
      const reason =
        pattern.length > MAX_URL_PATTERN_LENGTH
          ? `must NOT have more than ${MAX_URL_PATTERN_LENGTH} characters`
          : urlPatternProblem(pattern);
      if (reason) errors.push({ field: `${fieldPrefix}.${key}[${index}]`, reason });
    });
  }
  setting.authorizations?.forEach((auth, index) => {
    if (auth.url_pattern != null) {
      const reason = urlPatternProblem(auth.url_pattern);
      if (reason) errors.push({ field: `${fieldPrefix}.authorizations[${index}].url_pattern`, reason });
    }
  });
  if (setting.version != null && setting.version !== LATEST_SETTING_VERSION) {
    errors.push({
      field: `${fieldPrefix}.version`,
      reason: `unknown setting version "${setting.version}"; the only version is "${LATEST_SETTING_VERSION}"`,
    });
  }
  if (setting.timezone != null) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: setting.timezone });
    } catch {
      errors.push({
        field: `${fieldPrefix}.timezone`,
        reason: `unknown IANA time zone "${setting.timezone}"`,
      });
    }
  }
  setting.sitemap_urls?.forEach((raw, index) => {
    const reason = httpUrlProblem(raw, '; use authorizations');
    if (reason) errors.push({ field: `${fieldPrefix}.sitemap_urls[${index}]`, reason });
  });
  if (setting.user_agent != null && /[\r\n]/.test(setting.user_agent)) {
    errors.push({ field: `${fieldPrefix}.user_agent`, reason: 'must not contain line breaks' });
  }
  if (setting.language != null && !/^[A-Za-z0-9*;=.,\- ]*$/.test(setting.language)) {
    errors.push({
      field: `${fieldPrefix}.language`,
      reason: 'must be an Accept-Language value such as "ja,en;q=0.8"',
    });
  }
  return errors;
}

const flagOn = (value: number | null | undefined, fallback: 0 | 1): boolean => (value ?? fallback) === 1;
/**
 * The collection flags are inverted: 0 collects, 1 does not (docs/reference/crawl-settings.md,
 * crawl_result_collection).
 */
const collects = (value: number | null | undefined, fallback: 0 | 1): boolean => (value ?? fallback) === 0;

/**
 * Applies the defaults of docs/reference/crawl-settings.md, Fields; only on a setting that passed
 * checkCrawlSetting. A setting stored before patterns ran on RE2 may still hold a pattern RE2
 * cannot express: that throws UnsupportedUrlPatternError naming the field, and the run ends 2040
 * (docs/reference/run-states.md).
 */
export function resolveCrawlSettings(
  setting: InstantCrawlerSetting,
  context: SettingContext = { feedsSearch: false },
): CrawlSettings {
  const firstAuth = setting.authorizations?.[0];
  const screenshot = setting.screenshot;
  const compileAll = (key: 'allow_urls_patterns' | 'deny_urls_patterns'): UrlPattern[] =>
    (setting[key] ?? []).map((pattern, index) => compileFieldPattern(`setting.${key}[${index}]`, pattern));
  return {
    seedUrls: [...setting.seed_urls],
    allowPatterns: compileAll('allow_urls_patterns'),
    denyPatterns: compileAll('deny_urls_patterns'),
    depthLimit: setting.depth_limit ?? null,
    documentsLimit: setting.documents_limit ?? null,
    concurrency: setting.base_concurrent_requests ?? DEFAULT_CONCURRENCY,
    delaySeconds: setting.download_delay ?? 0,
    obeyRobots: setting.robots_txt ?? true,
    keepQuery: flagOn(setting.request_fingerprint?.keep_query, 1),
    keepFragment: flagOn(setting.request_fingerprint?.keep_fragment, 0),
    includePdf: flagOn(setting.crawl_file?.pdf, 0),
    includeOffice: flagOn(setting.crawl_file?.ms_office, 0),
    collectObjects: collects(setting.crawl_result_collection?.crawl_object, 0),
    collectUrlList: collects(setting.crawl_result_collection?.url_list, 0),
    collectLinkList: collects(setting.crawl_result_collection?.link_url_list, 1),
    userAgent: setting.user_agent ?? null,
    language: setting.language ?? null,
    timezone: setting.timezone ?? null,
    authorization:
      firstAuth && (firstAuth.user != null || firstAuth.password != null)
        ? {
            user: firstAuth.user ?? '',
            password: firstAuth.password ?? '',
            urlPattern:
              firstAuth.url_pattern != null
                ? compileFieldPattern('setting.authorizations[0].url_pattern', firstAuth.url_pattern)
                : null,
          }
        : null,
    screenshot: screenshot
      ? {
          width: screenshot.viewport_width ?? DEFAULT_VIEWPORT.width,
          height: screenshot.viewport_height ?? DEFAULT_VIEWPORT.height,
          fullPage: screenshot.render_all ?? false,
        }
      : null,
    waitType: setting.wait_type ?? 0,
    executionTimeoutSeconds: executionTimeoutSecondsOf(setting),
    readsSitemaps: setting.sitemaps ?? context.feedsSearch,
    sitemapUrls: [...(setting.sitemap_urls ?? [])],
    sitemapLastmodSkipDays: setting.sitemap_lastmod_skip_days ?? 0,
  };
}

/**
 * The run's time limit, read without resolving the rest: the service needs it for a run whose
 * setting its thread resolves (compiling the patterns there, not on the API thread).
 */
export function executionTimeoutSecondsOf(setting: InstantCrawlerSetting): number {
  return setting.execution_timeout ?? DEFAULT_EXECUTION_TIMEOUT_SECONDS;
}

/** Returns a copy of the setting with passwords masked, for logs and echoed settings. */
export function redactCrawlSetting(setting: InstantCrawlerSetting): InstantCrawlerSetting {
  if (!setting.authorizations) return setting;
  return {
    ...setting,
    authorizations: setting.authorizations.map((auth) => ({
      ...auth,
      password: auth.password == null ? auth.password : '********',
    })),
  };
}

/**
 * HTML pages go through Chromium when `screenshot` or `wait_type` 2 asks for it
 * (docs/reference/crawl-rules.md, Rendering).
 */
export function rendersPages(settings: CrawlSettings): boolean {
  return settings.screenshot !== null || takesLinksFromRenderedDom(settings);
}

/** wait_type 2: links come from the DOM after scripts ran and the network went idle. */
export function takesLinksFromRenderedDom(settings: CrawlSettings): boolean {
  return settings.waitType === 2;
}

/** The setting takes a screenshot of each HTML page (docs/reference/crawl-rules.md). */
export function takesScreenshots(setting: InstantCrawlerSetting): boolean {
  return setting.screenshot !== undefined && setting.screenshot !== null;
}
