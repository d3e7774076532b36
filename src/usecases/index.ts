/**
 * The use cases: the management operations, the instant and scheduled crawl services, run views,
 * tenant work and retention. (docs/design/layers.md, Surfaces)
 */
export { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-codec.js';
export { type DownloadLookup, InstantCrawlService, instantDownloadPath } from './instant-crawl-service.js';
export {
  ACCOUNT_ROLES,
  type AccountActor,
  type AccountView,
  type Actor,
  adminTokenFingerprint,
  ANALYTICS_MAX_DAYS,
  AUDIT_PAGE,
  ConflictError,
  csrfTokenOf,
  DELIVERIES_LIMIT,
  type DraftCheck,
  EMAIL_MAX_CHARS,
  EVERYWHERE,
  ForbiddenError,
  hashSecret,
  InvalidInputError,
  invitationUrl,
  type ManagedRun,
  type ManagedServiceSetting,
  type ManagedWebhook,
  Management,
  type ManagementChange,
  MAX_WEBHOOKS_PER_GROUP,
  NAME_MAX_CHARS,
  NotFoundError,
  type OperatorSessionContext,
  PASSWORD_CHARS,
  PasswordChecksBusyError,
  PING_LIMITS,
  PREVIEW_DOCUMENTS,
  PREVIEWED_RUNS,
  RateLimitedError,
  type RunFiles,
  type RunManagement,
  RUNS_PAGE_LIMIT,
  sameToken,
  type Scope,
  type ServiceSettingDraft,
  type SessionContext,
  sessionEndMicros,
  SignInLimitedError,
  SignInRefusedError,
  WEBHOOK_SECRET_CHARS,
  WEBHOOK_URL_MAX_CHARS,
} from './management/index.js';
export { sweepExpiredArtifacts } from './retention-sweeper.js';
export { crawlHistoryView, crawlStatusView, runHistoryView, scheduledHistoryView } from './run-views.js';
export { ScheduledCrawlService } from './scheduled-crawl-service.js';
export { warnAboutStoredSettings } from './stored-pattern-check.js';
export { TENANT_JOB_LIMIT_MS, TenantWork, TenantWorkBusyError } from './tenant-work/tenant-work.js';
