import type { ArtifactStore } from '../blob/artifact-store.js';
import { ArtifactFile } from '../domain/artifact-files.js';
import type { RunFiles } from '../usecases/management/index.js';
import { RUN_REPORT_FILE } from '../run-data/run-report-schema.js';
import { SqliteRunReport } from '../run-data/sqlite-run-report.js';

/**
 * A run's report and page bundle in the artifact store, local or object storage
 * (docs/design/crawl.md, Run reports and live progress): the report is a SQLite file read from a
 * local path.
 */
export function runFilesOf(artifacts: ArtifactStore): RunFiles {
  return {
    async openReport(runId) {
      const file = await artifacts.reportFile(runId, RUN_REPORT_FILE);
      return file === undefined ? undefined : new SqliteRunReport(file);
    },
    readBundle: (runId, offset, bytes) => artifacts.readRange(runId, ArtifactFile.objects, offset, bytes),
    storedBytes: (runId) => artifacts.storedBytes(runId),
  };
}
