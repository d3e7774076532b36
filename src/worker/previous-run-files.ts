import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ServiceLogger } from '../observability/service-logger.js';
import type { ArtifactStore } from '../blob/index.js';
import type { MemberReader } from '../crawler/index.js';
import type { PreviousRunFiles } from '../crawler/engine.js';
import { ArtifactFile, RunState } from '../domain/index.js';
import type { CrawlRunStore, RunRecord } from '../store/index.js';
import { RUN_REPORT_FILE } from '../run-data/index.js';

/** Ended runs of the setting looked at, newest first, for one that left its files. */
const RUNS_LOOKED_AT = 5;

type Deps = { runs: CrawlRunStore; artifacts: ArtifactStore; logger: ServiceLogger };

/** The previous run as the run's thread gets it. */
export interface PreviousRun {
  /** What the thread opens: the report (a local path) and the bundle when it is a local file. */
  files: PreviousRunFiles;
  /** Without a local bundle (object storage): reads one page's member, by range, for the thread. */
  readBundle?: MemberReader['read'];
}

/**
 * The files of the latest earlier run of a scheduled run's setting that ended with its files
 * (2030 or 2050), so its pages are asked for conditionally (docs/reference/crawl-rules.md,
 * Conditional re-crawls); undefined for an instant run or when there is none.
 */
export async function previousRunFilesOf(
  run: RunRecord,
  deps: Deps,
  signal: AbortSignal,
): Promise<PreviousRun | undefined> {
  if (run.serviceSettingId === null) return undefined;
  const earlier = await deps.runs.listSettingHistory(run.serviceSettingId, {
    fromMicros: 0,
    toMicros: Number.MAX_SAFE_INTEGER,
    limit: RUNS_LOOKED_AT,
  });
  const previous = earlier.find(
    (candidate) =>
      candidate.id !== run.id &&
      (candidate.state === RunState.stopped || candidate.state === RunState.stoppedByCancel) &&
      candidate.artifactsDeletedMicros === null &&
      candidate.artifacts.includes(ArtifactFile.objects),
  );
  if (previous === undefined) return undefined;
  // The report is a local file (object storage downloads it once into its cache). A local bundle
  // is read in place; one kept in object storage is read page by page, one ranged GET for each
  // page the crawl reaches, never downloaded whole.
  const bundleFile = path.join(deps.artifacts.folderFor(previous.id), ArtifactFile.objects);
  try {
    // A store that does not answer delays the run's start by REPORT_WAIT_MS at most (or until
    // it is cancelled): the run then fetches every page whole.
    const reportFile = await within(deps.artifacts.reportFile(previous.id, RUN_REPORT_FILE), signal);
    if (reportFile === undefined) return undefined;
    if (existsSync(bundleFile)) return { files: { reportFile, bundleFile } };
    // A bundle that is nowhere (deleted from the data directory) is not asked for page by page.
    const stored = await within(deps.artifacts.readRange(previous.id, ArtifactFile.objects, 0, 0), signal);
    if (stored === undefined) return undefined;
    return { files: { reportFile }, readBundle: storedBundleReader(run, previous.id, deps) };
  } catch (error) {
    deps.logger.warn(
      { err: error, run_id: run.id },
      "the previous run's report cannot be read; every page is fetched whole",
    );
    return undefined;
  }
}

/** How long a run waits for its previous run's report before it starts without it. */
const REPORT_WAIT_MS = 60_000;

/** What `promise` gives, or undefined once REPORT_WAIT_MS passed or `signal` aborted first. */
async function within<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  const late = AbortSignal.any([signal, AbortSignal.timeout(REPORT_WAIT_MS)]);
  if (late.aborted) return undefined;
  let stop: () => void = () => undefined;
  const given = new Promise<undefined>((resolve) => {
    stop = () => resolve(undefined);
    late.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([promise, given]);
  } finally {
    late.removeEventListener('abort', stop);
  }
}

/**
 * Reads parts of the previous run's stored bundle. The first part that cannot be read (the object
 * gone, the store failing or too slow) is logged, and every later page is fetched whole without
 * asking the store again: a store in trouble costs the run one wait, not one a page.
 */
function storedBundleReader(run: RunRecord, previousId: number, deps: Deps): MemberReader['read'] {
  let broken = false;
  const unread = (error?: unknown) => {
    if (!broken)
      deps.logger.warn(
        { ...(error !== undefined && { err: error }), run_id: run.id, previous_run_id: previousId },
        "a page of the previous run's bundle cannot be read; the run's later pages are fetched whole",
      );
    broken = true;
    return undefined;
  };
  return async (offset, bytes) => {
    if (broken) return undefined;
    try {
      return (await deps.artifacts.readRange(previousId, ArtifactFile.objects, offset, bytes)) ?? unread();
    } catch (error) {
      return unread(error);
    }
  };
}
