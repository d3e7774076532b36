/**
 * The whole service as `kumo serve` starts it, and the demo tenant of its first start.
 * (docs/design/layers.md, Surfaces)
 */
export { bootstrapDemoTenant, DEMO_SEARCH_SERVICE_ID, issueDemoKey } from './bootstrap.js';
export { type RunningKumo, startKumo } from './start-kumo.js';
