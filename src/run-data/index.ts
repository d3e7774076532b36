/**
 * A run's own database: the store a crawl writes, its checkpoints and its report.
 * (docs/design/layers.md, Surfaces)
 */
export { type CheckpointMarks, CheckpointReader, NO_MARKS } from './run-checkpoint-reader.js';
export {
  type CheckpointEntry,
  type CheckpointLink,
  CheckpointMissingError,
  type CheckpointRow,
  type RunCheckpoint,
} from './run-checkpoint.js';
export { restoreRunData } from './run-data-restore.js';
export { SqliteRunDataStore } from './run-data-store.js';
export type {
  CrawlProgress,
  FrontierEntry,
  HostEventsRecord,
  LinkRow,
  NewFrontierEntry,
  PageCommit,
  RunDataStore,
  RunProgress,
  SeedOutcomes,
  SitemapFileRecord,
  UrlRow,
} from './run-data.js';
export { RUN_REPORT_FILE } from './run-report-schema.js';
export type { ReportPage, ReportRow, RunReport, StatusClass } from './run-report.js';
export { SqliteRunReport } from './sqlite-run-report.js';
