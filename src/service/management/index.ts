/**
 * What the management layer offers its adapters (the management API, `kumo admin`, the console);
 * nothing outside this folder imports its other files (a dependency rule, docs/architecture.md).
 */
export { Management } from './management.js';
export type { Actor, ChangeAction, ManagementChange, ManagementDeps } from './management-context.js';
export { ConflictError, type ManagedResource, NotFoundError } from './management-errors.js';
export { EVERYWHERE, type Scope } from './management-scope.js';
export {
  DELIVERIES_LIMIT,
  NAME_MAX_CHARS,
  WEBHOOK_SECRET_CHARS,
  WEBHOOK_URL_MAX_CHARS,
} from './input-rules.js';
export type { CreatedApiKey } from './api-key-management.js';
export type { ManagedServiceSetting, ServiceSettingDraft } from './service-setting-management.js';
export type { DeliveryRef, ManagedWebhook } from './webhook-management.js';
export { InvalidInputError, type FieldError } from '../../domain/field-error.js';
