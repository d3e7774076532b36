import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  ObjectSpool,
  ArtifactWriteError,
  type PackagedArtifact,
  packageArtifacts,
  storageReason,
} from '../artifacts/index.js';
import { PRIVATE_FOLDER_MODE } from '../util/index.js';
import { type CrawlOutcome, runCrawl, type CrawlControl, type CrawlEngineDeps } from '../crawler/engine.js';
import { seedUrlOf } from '../crawler/index.js';
import { type CrawlSettings, ArtifactFile } from '../domain/index.js';
import {
  type HostEventsRecord,
  type RunProgress,
  type SeedOutcomes,
  type SitemapFileRecord,
  type UrlRow,
  SqliteRunDataStore,
  RUN_REPORT_FILE,
} from '../run-data/index.js';
import { RUN_SPOOL_FILE, RUN_STORE_FILE } from './work-folder-progress.js';

export interface CrawlWorkspace {
  /** Folder of the run's working data (run store, object spool); kept until the run ends. */
  workFolder: string;
  /** Folder the artifacts are written to. */
  artifactFolder: string;
}

export interface CrawlExecution {
  outcome: CrawlOutcome;
  progress: RunProgress;
  /** The seeds that got no HTTP answer (connection, DNS, TLS, refused address, robots.txt), with why. */
  seeds: SeedOutcomes;
  artifacts: PackagedArtifact[];
  /** The sitemap files the run read, in order; absent when it read none. */
  sitemaps?: SitemapFileRecord[];
  /** Hosts that slowed the run down, paused it or were given up; absent when none did. */
  hosts?: HostEventsRecord[];
  /** Pages that answered 304 and kept the previous run's copy; absent when none did. */
  keptPages?: number;
  /**
   * Pages kept from the previous run without a request, their sitemap's lastmod being older than
   * a copy confirmed at most `days` ago; absent when none were.
   */
  keptUnasked?: KeptUnasked;
  /** With `pageOutcomes` asked for and artifacts produced: what the URL rows say for a search index. */
  pageOutcomes?: PageOutcomes;
}

/** Pages kept without a request, and the setting's sitemap_lastmod_skip_days. */
export interface KeptUnasked {
  pages: number;
  days: number;
}

/** URLs (requested and final) that answered 404/410, and those fetched without a usable answer. */
export interface PageOutcomes {
  gone: Set<string>;
  failed: Set<string>;
  /** Every seed answered 2xx: the site was reachable, so pages the run did not reach are really gone. */
  seedsFetched: boolean;
}

const GONE_STATUSES: ReadonlySet<number> = new Set([404, 410]);

function pageOutcomesOf(rows: Iterable<UrlRow>, settings: CrawlSettings): PageOutcomes {
  const seeds = new Set(
    settings.seedUrls.flatMap((raw) => seedUrlOf(raw, settings.keepFragment)?.href ?? []),
  );
  const outcomes: PageOutcomes = { gone: new Set(), failed: new Set(), seedsFetched: false };
  for (const row of rows) {
    if (row.ok) {
      seeds.delete(row.crawlUrl);
      continue;
    }
    const target =
      row.httpStatus !== null && GONE_STATUSES.has(row.httpStatus) ? outcomes.gone : outcomes.failed;
    target.add(row.crawlUrl);
    if (row.lastUrl !== null) target.add(row.lastUrl);
  }
  outcomes.seedsFetched = seeds.size === 0;
  return outcomes;
}

/**
 * Crawls with a run store and spool in `workFolder` (resuming what is there), then packages the
 * artifacts when the outcome is one that produces them.
 */
export async function executeCrawl(
  settings: CrawlSettings,
  workspace: CrawlWorkspace,
  deps: Omit<CrawlEngineDeps, 'store' | 'spool'>,
  control: CrawlControl,
  packagesOn: ReadonlySet<CrawlOutcome>,
  options: { pageOutcomes?: boolean; writeReport?: boolean } = {},
): Promise<CrawlExecution> {
  await mkdir(workspace.workFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const store = new SqliteRunDataStore(path.join(workspace.workFolder, RUN_STORE_FILE));
  const spool = new ObjectSpool(path.join(workspace.workFolder, RUN_SPOOL_FILE));
  try {
    const outcome = await runCrawl(settings, { ...deps, store, spool }, control);
    const progress = store.progress();
    const seeds = store.seedOutcomes();
    const sitemapFiles = store.sitemapOutcomes().files;
    const hostEvents = store.hostEvents();
    const keptPages = store.keptPages();
    const keptUnasked = store.keptUnaskedPages();
    const told = {
      ...(sitemapFiles.length > 0 && { sitemaps: sitemapFiles }),
      ...(hostEvents.length > 0 && { hosts: hostEvents }),
      ...(keptPages > 0 && { keptPages }),
      ...(keptUnasked > 0 && {
        keptUnasked: { pages: keptUnasked, days: settings.sitemapLastmodSkipDays },
      }),
    };
    let artifacts: PackagedArtifact[] = [];
    if (packagesOn.has(outcome)) {
      try {
        await mkdir(workspace.artifactFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
      } catch (error) {
        throw new ArtifactWriteError(`creating the artifact folder failed: ${storageReason(error)}`, {
          cause: error,
        });
      }
      artifacts = await packageArtifacts(store, spool, settings, workspace.artifactFolder, deps.timezone);
      // The console's view of the run (docs/design/crawl.md, Run reports and live progress); not an
      // artifact, and not written by `kumo crawl`, whose folder holds only what the user asked for.
      if (options.writeReport)
        try {
          const bundled = artifacts.some((artifact) => artifact.name === ArtifactFile.objects);
          store.writeReport(path.join(workspace.artifactFolder, RUN_REPORT_FILE), {
            bundleWritten: bundled,
            linksCollected: settings.collectLinkList,
          });
        } catch (error) {
          throw new ArtifactWriteError(`writing the run report failed: ${storageReason(error)}`, {
            cause: error,
          });
        }
      if (options.pageOutcomes)
        return {
          outcome,
          progress,
          seeds,
          artifacts,
          ...told,
          pageOutcomes: pageOutcomesOf(store.rows(), settings),
        };
    }
    return { outcome, progress, seeds, artifacts, ...told };
  } finally {
    store.close();
    spool.close();
  }
}
