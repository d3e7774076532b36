/**
 * A run's artifacts: packaging the CSV and the tar.gz, and the tar and bundle readers and writers
 * behind them. (docs/design/layers.md, Surfaces)
 */
export { bundleMembersOf, bundleMembersSync } from './bundle-members.js';
export { objectFolderOf } from './folder-path.js';
export { ObjectSpool } from './object-spool.js';
export {
  ArtifactWriteError,
  packageArtifacts,
  type PackagedArtifact,
  storageReason,
} from './package-artifacts.js';
export { spreadsheetCsvLines } from './spreadsheet-csv.js';
export { encodeTarFiles, END_OF_ARCHIVE, type TarFile } from './tar-entries.js';
export { readTarFiles } from './tar-read.js';
