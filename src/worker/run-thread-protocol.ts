/**
 * The messages between the service and the thread executing one crawl run (docs/design/crawl.md,
 * Crawl threads). Every message is plain data (structured clone), never a shared object, so the
 * same exchange could run between machines: the thread gets the run's stored setting and
 * workspace and resolves the setting itself (compiled patterns do not cross threads).
 */
import type { PackagedArtifact } from '../artifacts/index.js';
import type { CrawlOutcome, PreviousRunFiles } from '../crawler/engine.js';
import type { FetchLimits } from '../crawler/index.js';
import type { InstantCrawlerSetting } from '../domain/schemas.js';
import type {
  CrawlProgress,
  HostEventsRecord,
  RunProgress,
  SeedOutcomes,
  SitemapFileRecord,
} from '../run-data/index.js';
import type { BrowserRequest, BrowserAnswer } from './browser-protocol.js';
import type { BundlePartAnswer, BundlePartRequest } from './bundle-part-protocol.js';
import type { CrawlWorkspace, KeptUnasked, PageOutcomes } from './execute-crawl.js';
import type { MessagePort } from 'node:worker_threads';

/** Everything a run thread needs to execute one run. */
export interface RunStart {
  runId: number;
  /** The run's setting as stored. */
  setting: InstantCrawlerSetting;
  /**
   * The run feeds a search service: it collects the page files whatever crawl_object says, and
   * reads sitemaps unless its setting says not to.
   */
  feedsSearch: boolean;
  workspace: CrawlWorkspace;
  limits: FetchLimits;
  defaultUserAgent: string;
  timezone: string;
  /** KUMO_ALLOW_PRIVATE_NETWORKS, for the thread's own address policy. */
  allowPrivateNetworks: boolean | string[];
  /** The service clock minus the system clock, so the thread's timestamps agree with the service's. */
  clockOffsetMicros: number;
  /** Wall-clock end of the run, epoch microseconds on the service clock. */
  deadlineMicros: number;
  packagesOn: CrawlOutcome[];
  pageOutcomes: boolean;
  /** Writes run-report.db beside the artifacts (the service's runs; not `kumo crawl`'s). */
  writeReport: boolean;
  /** Present when the service can render pages (screenshots, wait_type 2). */
  browser?: RunBrowserSettings;
  /**
   * The files of the setting's previous run, asked again page by page (conditional re-crawls);
   * without a local bundle file, its members are asked of the service (bundle-part-protocol.ts).
   */
  previous?: PreviousRunFiles;
}

export interface RunBrowserSettings {
  executablePath: string;
  idleWaitMs: number;
  pageTimeoutMs: number;
}

/** The end of a run the thread reports: what executeCrawl returned. */
export interface RunResult {
  outcome: CrawlOutcome;
  progress: RunProgress;
  seeds: SeedOutcomes;
  artifacts: PackagedArtifact[];
  sitemaps?: SitemapFileRecord[];
  hosts?: HostEventsRecord[];
  keptPages?: number;
  keptUnasked?: KeptUnasked;
  pageOutcomes?: PageOutcomes;
}

/** A run that threw, as data: the service turns it into the run's 2040 message. */
export interface RunFailure {
  name: string;
  message: string;
  code?: string;
}

export type ToRunThread =
  /**
   * The run, and its own port to the pace thread (transferred; closed when the run ends). Without
   * a port (`kumo crawl`), the run paces its hosts on its own.
   */
  | { type: 'start'; run: RunStart; pacePort?: MessagePort }
  /** Cancel (2050), the shutdown's hard stop, or the execution timeout: fetches are aborted. */
  | { type: 'cancel' }
  /** Shutdown: no new page starts, pages in flight finish; the outcome is `interrupted`. */
  | { type: 'drain' }
  | BundlePartAnswer
  | BrowserAnswer;

export type FromRunThread =
  /** The run's progress now (run-thread-reports.ts: at most a few times a second). */
  | { type: 'progress'; progress: CrawlProgress }
  /** Pages crawled since the last such message, for the metrics, and how many failed, by kind. */
  | { type: 'pages'; count: number; failures: Record<string, number> }
  | { type: 'result'; result: RunResult }
  | { type: 'failed'; failure: RunFailure }
  | BundlePartRequest
  | BrowserRequest;
