/**
 * What the management layer offers its adapters (the management API, `kumo admin`, the console);
 * nothing outside this folder imports its other files (docs/design/layers.md, Dependency rules).
 */
export { Management } from './management.js';
export type { ChangeAction, ManagementChange, ManagementDeps } from './management-context.js';
export {
  ACCOUNT_ROLES,
  type AccountActor,
  type Actor,
  CHANGE_NEEDS,
  type OperatorActor,
} from './account-roles.js';
export {
  ConflictError,
  ForbiddenError,
  type ManagedResource,
  NotFoundError,
  PasswordChecksBusyError,
  RateLimitedError,
  SignInLimitedError,
  SignInRefusedError,
} from './management-errors.js';
export {
  type AccountView,
  type CreatedInvitation,
  EMAIL_MAX_CHARS,
  INVITATION_TTL_MICROS,
  invitationUrl,
} from './account-management.js';
export {
  SESSION_ABSOLUTE_MICROS,
  SESSION_IDLE_MICROS,
  type SessionContext,
  sessionEndMicros,
  type SignedIn,
  type SignInClient,
} from './session-management.js';
export { AUDIT_PAGE, type AuditPage } from './audit-log-management.js';
export { PASSWORD_CHARS, SCRYPT_PARAMS } from './password-hash.js';
export { SIGN_IN_LIMITS } from './sign-in-limiter.js';
export { PING_LIMITS } from './ping-limiter.js';
export { MAX_WEBHOOKS_PER_GROUP } from './input-rules.js';
export { PASSWORD_HASH_LIMITS } from './password-hash-gate.js';
export { adminTokenFingerprint, csrfTokenOf, hashSecret, sameToken } from './secret-tokens.js';
export { EVERYWHERE, type Scope } from './management-scope.js';
export {
  DELIVERIES_LIMIT,
  NAME_MAX_CHARS,
  WEBHOOK_SECRET_CHARS,
  WEBHOOK_URL_MAX_CHARS,
} from './input-rules.js';
export type { CreatedApiKey } from './api-key-management.js';
export type { DraftCheck, ManagedServiceSetting } from './service-setting-management.js';
export type { ServiceSettingDraft } from './setting-draft-check.js';
export type { UrlVerdict } from '../tenant-work/url-verdicts.js';
export { PREVIEWED_RUNS } from './setting-draft-check.js';
export type { DeliveryRef, ManagedWebhook } from './webhook-management.js';
export { InvalidInputError, type FieldError } from '../../domain/index.js';
export { type ManagedRun, RUNS_PAGE_LIMIT } from './run-management.js';
export type { RunDeps, RunFiles } from './management-context.js';
export type { RunManagement } from './run-management.js';
export type { SearchServiceStatus } from './search-service-management.js';
export type { DrilldownNode, FacetPreview } from '../tenant-work/facet-preview.js';
export { PREVIEW_DOCUMENTS } from './search-service-management.js';
export {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_MAX_DAYS,
  type AnalyticsReport,
} from './search-analytics-management.js';
export type { OperatorSessionContext } from './operator-session-management.js';
