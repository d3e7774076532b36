import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LocalArtifactStore } from '../blob/local-artifact-store.js';
import { ArtifactFile } from '../domain/artifact-files.js';
import type { RunFiles } from '../service/management/index.js';
import { RUN_REPORT_FILE } from '../store/sqlite/run-report-schema.js';
import { SqliteRunReport } from '../store/sqlite/sqlite-run-report.js';

/** A run's report and page bundle in the local artifact folder (docs/architecture.md, Run reports). */
export function localRunFiles(artifacts: LocalArtifactStore): RunFiles {
  return {
    openReport(runId) {
      const file = artifacts.reportPath(runId, RUN_REPORT_FILE);
      return existsSync(file) ? new SqliteRunReport(file) : undefined;
    },
    readBundle: (runId, offset, bytes) => artifacts.readRange(runId, ArtifactFile.objects, offset, bytes),
    storedBytes(runId) {
      const folder = artifacts.folderFor(runId);
      try {
        return readdirSync(folder).reduce((sum, name) => sum + statSync(path.join(folder, name)).size, 0);
      } catch {
        return 0;
      }
    },
  };
}
