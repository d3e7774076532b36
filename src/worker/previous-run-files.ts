import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ArtifactStore } from '../blob/artifact-store.js';
import type { PreviousRunFiles } from '../crawler/previous-answers.js';
import { ArtifactFile } from '../domain/artifact-files.js';
import { RunState } from '../domain/run-states.js';
import type { CrawlRunStore, RunRecord } from '../store/service-store.js';
import { RUN_REPORT_FILE } from '../store/sqlite/run-report-schema.js';

/** Ended runs of the setting looked at, newest first, for one that left its files. */
const RUNS_LOOKED_AT = 5;

/**
 * The files of the latest earlier run of a scheduled run's setting that ended with its files
 * (2030 or 2050), so its pages are asked for conditionally (docs/reference/crawl-rules.md,
 * Conditional re-crawls); undefined for an instant run or when there is none.
 */
export async function previousRunFilesOf(
  run: RunRecord,
  deps: { runs: CrawlRunStore; artifacts: ArtifactStore; logger: FastifyBaseLogger },
): Promise<PreviousRunFiles | undefined> {
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
  // The bundle is read in place: only a local one serves (object storage keeps none here, and
  // its report is then not fetched for nothing).
  const bundleFile = path.join(deps.artifacts.folderFor(previous.id), ArtifactFile.objects);
  if (!existsSync(bundleFile)) return undefined;
  try {
    const reportFile = await deps.artifacts.reportFile(previous.id, RUN_REPORT_FILE);
    return reportFile === undefined ? undefined : { reportFile, bundleFile };
  } catch (error) {
    deps.logger.warn(
      { err: error, run_id: run.id },
      "the previous run's report cannot be read; every page is fetched whole",
    );
    return undefined;
  }
}
