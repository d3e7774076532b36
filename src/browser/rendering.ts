/**
 * Page rendering itself, loaded by a run's thread: it brings the guarded HTTP
 * client, which an idle service does not load. (docs/design/layers.md, Surfaces)
 */
export { createRenderer } from './create-renderer.js';
export { ChromiumRenderer } from './page-renderer.js';
