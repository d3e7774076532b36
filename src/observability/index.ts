/**
 * Metrics, health and the kinds of fetch errors counted. The process's logger is
 * ./service-logger.ts, which threads do not load. (docs/design/layers.md, Surfaces)
 */
export { fetchErrorKindOf } from './fetch-error-kind.js';
export {
  type FollowedGenerations,
  type HealthSources,
  type RunLeaseHealth,
  runLeaseProblem,
  type SchedulerHealth,
  schedulerProblem,
} from './health.js';
export { METRICS_CONTENT_TYPE, ServiceMetrics } from './service-metrics.js';
