import type { ArtifactStore } from '../blob/index.js';
import { ArtifactFile } from '../domain/index.js';
import type { RunFiles } from '../usecases/index.js';
import { RUN_REPORT_FILE, SqliteRunReport } from '../run-data/index.js';

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
