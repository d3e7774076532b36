/**
 * What the commands use to open a data directory, its record store and its search generations.
 * (docs/design/layers.md, Surfaces)
 */
export { ensureDataDir } from './data-dir.js';
export {
  DataDirError,
  existingDataDir,
  existingSearchService,
  UnknownSearchServiceError,
} from './existing-data-dir.js';
export { openRecordStore } from './open-record-store.js';
export { publishedGenerationParts, searchIndexWriterOf } from './search-generation-parts.js';
export { StartupError } from './startup-error.js';
