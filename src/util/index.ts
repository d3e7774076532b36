/**
 * Small helpers with no knowledge of Kumo: clocks, files, threads, semaphores, timestamps.
 * (docs/design/layers.md, Surfaces)
 */
export { type Clock, systemClock } from './clock.js';
export { codePointCount, firstCodePoints, HIGH_SURROGATE, wellFormed } from './code-points.js';
export { fileExists } from './file-exists.js';
export { GrowableUint32Array } from './growable-array.js';
export { idCounter } from './id-counter.js';
export { lazyRequire } from './lazy-require.js';
export { luxon } from './luxon.js';
export {
  preparePrivateDatabaseFile,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  tightenTree,
} from './private-files.js';
export { Semaphore } from './semaphore.js';
export { sleep, untilAborted } from './sleep.js';
export { TenantWorkPool } from './tenant-work-pool.js';
export { serveTenantWork } from './tenant-work-thread.js';
export { Turns } from './turns.js';
export { formatApiTimestamp, formatCsvTimestamp, parseQueryDatetime } from './timestamps.js';
export { defaultUserAgent, KUMO_VERSION } from './version.js';
export { WarmThreads } from './warm-threads.js';
