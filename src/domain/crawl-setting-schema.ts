import { type Static, Type } from '@sinclair/typebox';
import { MAX_URL_PATTERN_LENGTH, MAX_URL_PATTERNS } from './url-pattern.js';

/**
 * Every optional member may be null, meaning the default (docs/reference/crawl-settings.md); this
 * keeps each declaration short.
 */
const Nullable = <T extends ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);
const flag = (description: string) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Null()], { description }));
const nullableString = (description: string, maxLength = 2048) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description }));

/** Sitemap files a setting may list (`sitemap_urls`). */
export const MAX_LISTED_SITEMAPS = 100;

/** The longest age of a stored copy a sitemap's lastmod may keep without a request (`sitemap_lastmod_skip_days`). */
export const MAX_LASTMOD_SKIP_DAYS = 365;

/** Allow / deny patterns: each runs on every URL a crawl meets, so their number and size are capped. */
const UrlPatterns = Type.Array(Type.String({ maxLength: MAX_URL_PATTERN_LENGTH }), {
  maxItems: MAX_URL_PATTERNS,
});

export const CrawlFileSchema = Type.Object(
  {
    pdf: flag('0 = PDF files are neither fetched nor listed (default); 1 = include them'),
    ms_office: flag('0 = office files (doc, docx, xls, xlsx, ppt, pptx) excluded (default); 1 = include'),
  },
  { additionalProperties: false },
);

export const CrawlResultCollectionSchema = Type.Object(
  {
    crawl_object: flag('0 = collect page files into crawl_objects.tar.gz (default); 1 = do not'),
    url_list: flag('0 = write url_list.csv.gz (default); 1 = do not'),
    link_url_list: flag('0 = write link_list.csv.gz; 1 = do not (default)'),
  },
  { additionalProperties: false },
);

export const RequestFingerprintSchema = Type.Object(
  {
    keep_query: flag('1 = the (sorted) query is part of URL identity (default); 0 = it is not'),
    keep_fragment: flag('1 = the fragment is part of URL identity; 0 = it is not (default)'),
  },
  { additionalProperties: false },
);

export const ScreenshotSchema = Type.Object(
  {
    viewport_width: Type.Optional(Nullable(Type.Integer({ minimum: 320, maximum: 3840 }))),
    viewport_height: Type.Optional(Nullable(Type.Integer({ minimum: 240, maximum: 2160 }))),
    render_all: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const AuthorizationSchema = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('BASIC'), Type.Null()])),
    url_pattern: nullableString('regular expression (RE2 syntax) of URLs the credential is sent to'),
    user: nullableString('user name', 512),
    password: nullableString('password', 512),
  },
  { additionalProperties: false },
);

export const InstantCrawlerSettingSchema = Type.Object(
  {
    version: nullableString('crawler setting version; only "1" exists', 32),
    crawl_file: Type.Optional(Type.Union([CrawlFileSchema, Type.Null()])),
    crawl_result_collection: Type.Optional(Type.Union([CrawlResultCollectionSchema, Type.Null()])),
    request_fingerprint: Type.Optional(Type.Union([RequestFingerprintSchema, Type.Null()])),
    user_agent: nullableString('User-Agent header of every fetch', 512),
    seed_urls: Type.Array(Type.String({ maxLength: 2048 }), {
      minItems: 1,
      maxItems: 100,
      description: '1 to 100 absolute http(s) URLs',
    }),
    allow_urls_patterns: Type.Optional(
      Type.Union([UrlPatterns, Type.Null()], {
        description:
          'regular expressions (RE2 syntax: no lookaround or backreferences) matched against absolute ' +
          'URLs; default: the seed hosts and their subdomains on the seed port (80 and 443 count as ' +
          `one; http and https alike). At most ${MAX_URL_PATTERNS}, each at most ${MAX_URL_PATTERN_LENGTH} characters`,
      }),
    ),
    deny_urls_patterns: Type.Optional(
      Type.Union([UrlPatterns, Type.Null()], {
        description:
          'regular expressions (RE2 syntax); deny wins over allow; the same limits as allow_urls_patterns',
      }),
    ),
    documents_limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }))),
    timezone: nullableString('IANA time zone of crawl_datetime in the CSV', 64),
    language: nullableString('sent as Accept-Language', 128),
    screenshot: Type.Optional(Type.Union([ScreenshotSchema, Type.Null()])),
    depth_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1000 }))),
    authorizations: Type.Optional(
      Type.Union([Type.Array(AuthorizationSchema, { maxItems: 10 }), Type.Null()]),
    ),
    robots_txt: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    wait_type: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 3 }))),
    base_concurrent_requests: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 64 }))),
    download_delay: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 60 }), Type.Null()])),
    execution_timeout: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 259200 }))),
    sitemaps: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description:
          "read the sitemaps robots.txt names (else /sitemap.xml) of the seeds' sites; default false for an " +
          'instant crawl, true for a scheduled setting that feeds a search service',
      }),
    ),
    sitemap_urls: Type.Optional(
      Type.Union(
        [Type.Array(Type.String({ maxLength: 2048 }), { maxItems: MAX_LISTED_SITEMAPS }), Type.Null()],
        {
          description: `sitemap files (absolute http(s) URLs) read whatever \`sitemaps\` says; at most ${MAX_LISTED_SITEMAPS}`,
        },
      ),
    ),
    sitemap_lastmod_skip_days: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: MAX_LASTMOD_SKIP_DAYS }), Type.Null()], {
        description:
          'scheduled re-crawls: a page whose sitemap lastmod is older than its copy stored by the previous ' +
          'run, which the site confirmed (200 or 304) at most this many days ago, is kept without a request; ' +
          '0 (default) = always ask',
      }),
    ),
  },
  { additionalProperties: false },
);

export type InstantCrawlerSetting = Static<typeof InstantCrawlerSettingSchema>;
