/**
 * The scheduler of configured crawls. (docs/design/layers.md, Surfaces)
 */
export { Scheduler } from './scheduler.js';
