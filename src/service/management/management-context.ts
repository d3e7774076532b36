import type { ServiceStore, TenantRef } from '../../store/service-store.js';
import type { Clock } from '../../util/clock.js';
import type { ScheduledCrawlService } from '../scheduled-crawl-service.js';
import type { ManagedResource } from './management-errors.js';
import { isGroupScope, requireServiceGroup, type Scope } from './management-scope.js';

/**
 * Who asks for a change. Today only the operator (the `KUMO_ADMIN_TOKEN` holder through the
 * management API, or whoever runs `kumo admin` on the data directory); the console's signed-in
 * users join this union with their account and role (docs/architecture.md, Management layer).
 */
export type Actor = { kind: 'operator'; via: 'admin-api' | 'cli' };

export type ChangeAction = 'create' | 'update' | 'delete' | 'revoke' | 'run' | 'replay';

/** One change made through the management operations: what an audit log keeps. */
export interface ManagementChange {
  actor: Actor;
  action: ChangeAction;
  resource: ManagedResource;
  id: number;
  contractId: number;
  /** The service group the resource belongs to; null for a contract. */
  servicegroupId: number | null;
  atMicros: number;
}

export interface ManagementDeps {
  store: ServiceStore;
  /** Keeps the schedule slots and starts runs of crawl service settings. */
  scheduledCrawl: ScheduledCrawlService;
  /** The time of every write and of the next runs shown. */
  clock: Clock;
  /** The service's time zone, in which schedules run. */
  timezone: string;
  /**
   * Tells the webhook dispatcher that deliveries were queued (a replay). `kumo admin` has none:
   * `kumo serve` polls the store for due deliveries.
   */
  onDeliveriesQueued?: () => void;
  /** Told of every change, after it is stored (an audit log, later). */
  onChange?: (change: ManagementChange) => void;
}

/** What every group of management operations shares: the store, the clock and the change feed. */
export abstract class ManagementOperations {
  constructor(protected readonly deps: ManagementDeps) {}

  protected get store(): ServiceStore {
    return this.deps.store;
  }

  protected now(): number {
    return this.deps.clock.nowMicros();
  }

  /** Starts an operation within a scope: a service group must exist (NotFoundError naming it). */
  protected enter(scope: Scope): void {
    if (isGroupScope(scope)) requireServiceGroup(this.store.tenants, scope);
  }

  /** Reports a change of a service group's resource (or of a contract: no servicegroupId). */
  protected changed(
    actor: Actor,
    action: ChangeAction,
    resource: ManagedResource,
    target: { id: number } & Pick<TenantRef, 'contractId'> & Partial<Pick<TenantRef, 'servicegroupId'>>,
    atMicros: number,
  ): void {
    this.deps.onChange?.({
      actor,
      action,
      resource,
      id: target.id,
      contractId: target.contractId,
      servicegroupId: target.servicegroupId ?? null,
      atMicros,
    });
  }
}
