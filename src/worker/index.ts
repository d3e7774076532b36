/**
 * The crawl worker: leasing runs, the pool of run threads and their helper threads, and a run's
 * live progress. (docs/design/layers.md, Surfaces)
 */
export { BrowserHost } from './browser-host.js';
export { CheckpointThreadHost } from './checkpoint-thread-host.js';
export { hostMessageOf } from './host-report.js';
export { type LiveProgress, LiveRunProgress } from './live-run-progress.js';
export { PaceThreadHost } from './pace-thread-host.js';
export { configuredRunBrowser } from './run-browser.js';
export { type RunDispatcher, STORE_POLLED } from './run-dispatcher.js';
export { newWorkerName, RunLeasing } from './run-leasing.js';
export { RunThreads } from './run-thread-runner.js';
export { RunWorkerPool } from './run-worker-pool.js';
export { noSeedFetched } from './seed-report.js';
export { sitemapMessageOf } from './sitemap-report.js';
export { workFolderProgress } from './work-folder-progress.js';
