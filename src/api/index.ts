/**
 * The HTTP API as the composition root assembles it: the app, its download signer and the web
 * assets it serves. (docs/design/layers.md, Surfaces)
 */
export { type AppDeps, buildApp } from './build-app.js';
export { DownloadSigner } from './download-signer.js';
export { markShuttingDown } from './hooks/shutting-down.js';
export { isWebAssetsProblem, loadWebAssets } from './routes/widget-assets.js';
