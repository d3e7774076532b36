/**
 * Chromium for rendering and screenshots: finding and launching it, the shared pool, and the
 * renderer types. (docs/design/layers.md, Surfaces)
 */
export { BrowserPool, type BrowserPoolEvents, type PageSlots, type SharedBrowser } from './browser-pool.js';
export {
  type BrowserAvailability,
  CHROMIUM_ARGS,
  CHROMIUM_INSTALL_HINT,
  probeChromium,
} from './chromium-launch.js';
export { configuredBrowser } from './configured-browser.js';
export type { SandboxDecision } from './chromium-launch.js';
export { type PageRenderer, type RenderedPage, RenderFailure, type RenderSession } from './render-types.js';
