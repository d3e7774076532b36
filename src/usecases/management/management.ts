import { AccountManagement } from './account-management.js';
import { ApiKeyManagement } from './api-key-management.js';
import { AuditLogManagement } from './audit-log-management.js';
import type { ManagementDeps } from './management-context.js';
import { RunManagement } from './run-management.js';
import { ContractUsageManagement } from './contract-usage.js';
import { OperatorSessionManagement } from './operator-session-management.js';
import { SearchAnalyticsManagement } from './search-analytics-management.js';
import { SearchServiceManagement } from './search-service-management.js';
import { ServiceSettingManagement } from './service-setting-management.js';
import { SessionManagement } from './session-management.js';
import { SignInLimiter } from './sign-in-limiter.js';
import { TenantManagement } from './tenant-management.js';
import { UserManagement } from './user-management.js';
import { WebhookManagement } from './webhook-management.js';

/**
 * The management operations: the one layer behind the management API, `kumo admin` and the
 * console (docs/design/management.md, Management layer). Built by each composition root over its
 * store; independent of HTTP and of the command line.
 */
export class Management {
  readonly tenants: TenantManagement;
  readonly usage: ContractUsageManagement;
  readonly apiKeys: ApiKeyManagement;
  readonly searchServices: SearchServiceManagement;
  readonly searchAnalytics: SearchAnalyticsManagement;
  readonly serviceSettings: ServiceSettingManagement;
  readonly runs: RunManagement;
  readonly webhooks: WebhookManagement;
  readonly accounts: AccountManagement;
  readonly users: UserManagement;
  /** Sign-in and sessions; shares the sign-in limiter with `accounts`, so one per process. */
  readonly sessions: SessionManagement;
  /** The operator's console sign-in and admin token checks; holds their own limiter. */
  readonly operatorSessions: OperatorSessionManagement;
  readonly auditLog: AuditLogManagement;

  constructor(deps: ManagementDeps) {
    this.tenants = new TenantManagement(deps);
    this.usage = new ContractUsageManagement(deps);
    this.apiKeys = new ApiKeyManagement(deps);
    this.searchServices = new SearchServiceManagement(deps);
    this.searchAnalytics = new SearchAnalyticsManagement(deps);
    this.serviceSettings = new ServiceSettingManagement(deps);
    this.runs = new RunManagement(deps);
    this.webhooks = new WebhookManagement(deps);
    // One count of password attempts per account, whether they sign in or change the password.
    const passwordAttempts = new SignInLimiter();
    this.accounts = new AccountManagement(deps, passwordAttempts);
    this.users = new UserManagement(deps);
    this.sessions = new SessionManagement(deps, passwordAttempts);
    this.operatorSessions = new OperatorSessionManagement(deps);
    this.auditLog = new AuditLogManagement(deps);
  }
}
