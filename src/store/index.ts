/**
 * The record store: its interfaces and records, whichever database is behind them.
 * (docs/design/layers.md, Surfaces)
 */
export {
  type AccountRecord,
  type AccountRole,
  type AuditEntry,
  type InvitationRecord,
  LastOwnerError,
  type OperatorSessionRecord,
  type SessionRecord,
} from './account-store.js';
export type { HostTenures } from './host-tenures.js';
export { ServerTakenError } from './postgres/server-taken-error.js';
export {
  ActiveRunLimitError,
  type ApiKeyRecord,
  type ApiKeyStore,
  type AttemptOutcome,
  type ContractRecord,
  type CrawlRunStore,
  type DeliveryRecord,
  type HistoryQuery,
  type RecordStore,
  type RunLeaseStore,
  type RunListQuery,
  type RunningCounts,
  type RunRecord,
  type SearchServiceRecord,
  type SearchServiceStore,
  type ServiceGroupRecord,
  type ServiceSettingInput,
  type ServiceSettingRecord,
  type ServiceSettingStore,
  type TenantRef,
  type TenantStore,
  type WebhookDeliveryStore,
  type WebhookRecord,
  type WebhookStore,
} from './record-store.js';
export type { RunLease } from './run-leases.js';
export {
  type ActivityBatch,
  type ActivityCounts,
  isEmptyBatch,
  type QueryLogEntry,
  type SearchActivityLog,
  type SearchActivityStore,
  type SearchAnalyticsReader,
} from './search-activity-log.js';
export type {
  ClickDayCount,
  ClickedResult,
  DayTotals,
  QueryTotals,
  SearchDayCount,
} from './search-analytics.js';
export { type SearchGenerationStore, WriterLeaseLostError } from './search-generations.js';
