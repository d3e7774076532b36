/**
 * Storage of one crawl run's working data: its frontier, its URL rows, its links and the
 * location of its page files in the object spool. Lives outside memory so a run of a million
 * URLs does not grow the heap, and survives a restart so the run can resume.
 */

export interface FrontierEntry {
  seq: number;
  url: string;
  depth: number;
  referrer: string | null;
  /** The `lastmod` a sitemap gave the URL (W3C datetime as written), or null. */
  lastmod: string | null;
}

export interface NewFrontierEntry {
  /** Identity key; a second entry with the same fingerprint is ignored. */
  fingerprint: Uint8Array;
  url: string;
  depth: number;
  referrer: string | null;
  /** A sitemap's `lastmod`; given for a URL already queued, it is kept on that entry. */
  lastmod?: string | null;
}

/** One row of url_list.csv.gz (docs/reference/artifacts.md, url_list.csv.gz). */
export interface UrlRow {
  crawlUrl: string;
  lastUrl: string | null;
  ok: boolean;
  crawlMicros: number;
  httpStatus: number | null;
  lastModified: string | null;
  contentType: string | null;
  contentLength: number | null;
  /**
   * Why the URL got no HTTP answer (no connection, refused address, timeout, a seed refused by
   * robots.txt); null when it got one. Kept in meta.json and the run's message, not in the CSV.
   */
  fetchError: string | null;
  /**
   * Set on a page kept from the previous run without a request, and why (lastmod-skip.ts); run
   * stores only, checkpoints do not carry it.
   */
  keptWithoutRequest?: string;
}

/** A seed of the run that got no HTTP answer, and why. */
export interface UnansweredSeed {
  url: string;
  reason: string;
}

/** How the run's seeds fared: how many there are, and those that got no answer (in seed order). */
export interface SeedOutcomes {
  seeds: number;
  unanswered: UnansweredSeed[];
}

/** One sitemap file a run read (docs/reference/crawl-rules.md, Sitemaps). */
export interface SitemapFileRecord {
  url: string;
  /** `index` lists sitemaps, `urlset` (XML) and `text` list pages; null when the file was not read. */
  kind: 'index' | 'urlset' | 'text' | null;
  /** URLs (child sitemaps, for an index) the file listed and the run took. */
  listed: number;
  /** URLs new to the frontier. */
  added: number;
  /** What went wrong or was left out; null when the file was read whole. */
  problem: string | null;
}

/** What a run's sitemaps gave: every file read, in the order read. */
export interface SitemapOutcomes {
  files: SitemapFileRecord[];
  /** The reading ended (a run stopped or drained before that reads them again when resumed). */
  finished: boolean;
}

/**
 * A host that slowed a run down, paused it or was given up (docs/reference/crawl-rules.md,
 * Slowing down and pausing).
 */
export interface HostEventsRecord {
  host: string;
  /** 429 and 503 answers. */
  slowdowns: number;
  /** The largest gap between two requests to the host they led to, in ms. */
  maxGapMs: number;
  pauses: number;
  givenUp: boolean;
  /** URLs not fetched because the host was given up. */
  notFetched: number;
}

/** One row of link_list.csv.gz. */
export interface LinkRow {
  sourceUrl: string;
  linkUrl: string;
  anchorText: string;
  rel: string;
}

/** Where a page's bundle entries (one gzip member of tar entries) sit in the object spool. */
export interface ObjectRef {
  offset: number;
  bytes: number;
}

export interface PageCommit {
  frontierSeq: number;
  row: UrlRow;
  object: ObjectRef | undefined;
  discovered: NewFrontierEntry[];
  links: LinkRow[];
}

export interface RunProgress {
  /** Rows written (fetched URLs, failures included). */
  crawled: number;
  /** URLs known to the run that are fetched or still to fetch. */
  total: number;
}

/** What a crawl reports after each page: its progress and its failures, in all and by kind. */
export interface CrawlProgress extends RunProgress {
  errors: number;
  /** Failed URLs by kind (domain/url-error-kind.ts). */
  errorKinds: Record<string, number>;
}

export interface RunDataStore {
  /** Adds entries to the frontier, ignoring known fingerprints; returns how many were new. */
  enqueue(entries: readonly NewFrontierEntry[]): number;
  /** Queued entries after `afterSeq` in discovery order. */
  nextQueued(afterSeq: number, limit: number): FrontierEntry[];
  /**
   * The sitemap lastmod an entry has now: a sitemap read after the entry left the queue may have
   * given it one since.
   */
  lastmodOf(frontierSeq: number): string | null;
  /**
   * Records a fetched page atomically: its row, its files, its new links, its frontier entry
   * done. Returns how many of the discovered URLs were new to the frontier.
   */
  commitPage(commit: PageCommit): number;
  /** Forgets what an unfinished reading of the sitemaps recorded, before they are read again. */
  restartSitemaps(): void;
  recordSitemap(file: SitemapFileRecord): void;
  finishSitemaps(): void;
  sitemapOutcomes(): SitemapOutcomes;
  /** Keeps what a host did to the run, replacing what was kept of it before. */
  recordHostEvents(events: HostEventsRecord): void;
  hostEvents(): HostEventsRecord[];
  /** Marks a frontier entry as not fetched (a link robots.txt refuses, an excluded type): no row. */
  skip(frontierSeq: number): void;
  progress(): RunProgress;
  /** Rows of pages that answered 304 and kept the previous run's copy (asked, not those kept without a request). */
  keptPages(): number;
  /** Rows of pages kept from the previous run without a request (their sitemap's lastmod). */
  keptUnaskedPages(): number;
  /** The seeds (the depth-0 entries of the frontier) and those whose row says they got no answer. */
  seedOutcomes(): SeedOutcomes;
  rows(): IterableIterator<UrlRow>;
  links(): IterableIterator<LinkRow>;
  objects(): IterableIterator<ObjectRef>;
  close(): void;
}
