import type { RecordStore, TenantRef } from '../../store/index.js';
import type { RunReport } from '../../run-data/index.js';
import type { LiveRunProgress } from '../../worker/index.js';
import type { InstantCrawlService } from '../instant-crawl-service.js';
import type { SearchServices } from '../../search/index.js';
import type { Clock } from '../../util/index.js';
import type { ScheduledCrawlService } from '../scheduled-crawl-service.js';
import type { TenantWork } from '../tenant-work/tenant-work.js';
import { type Actor, authorize, CHANGE_NEEDS } from './account-roles.js';
import type { ManagedResource } from './management-errors.js';
import { isGroupScope, requireServiceGroup, type Scope } from './management-scope.js';

export type { Actor } from './account-roles.js';

export type ChangeAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'revoke'
  | 'run'
  | 'replay'
  | 'accept'
  | 'pause'
  | 'resume'
  | 'cancel'
  | 'sign_in'
  | 'sign_out';

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
  store: RecordStore;
  /** Keeps the schedule slots and starts runs of crawl service settings. */
  scheduledCrawl: ScheduledCrawlService;
  /**
   * Where a tenant's patterns are checked and matched, off the API thread (docs/security.md,
   * Tenant work off the API thread).
   */
  tenantWork: TenantWork;
  /** The time of every write and of the next runs shown. */
  clock: Clock;
  /** The service's time zone, in which schedules run. */
  timezone: string;
  /**
   * Tells the webhook dispatcher that deliveries were queued (a replay). `kumo admin` has none:
   * `kumo serve` polls the store for due deliveries.
   */
  onDeliveriesQueued?: () => void;
  /**
   * What the run pages need (docs/console.md, Runs): starting instant crawls, the live progress
   * of this process's runs and the run reports. `kumo admin` has none: it offers no run pages.
   */
  runs?: RunDeps;
  /** The open search indexes of `kumo serve`, for a service's status and facet preview. */
  searchIndexes?: Pick<
    SearchServices,
    'indexStatus' | 'documentUrls' | 'analytics' | 'indexFileBytes' | 'forget'
  >;
  /** Told of every change, after it is stored and written to the audit log. */
  onChange?: (change: ManagementChange) => void;
}

/** A run's report and its page bundle, wherever the artifacts are stored. */
export interface RunFiles {
  /** The run's report, to be closed by the caller; undefined when the run has none. */
  openReport(runId: number): Promise<RunReport | undefined>;
  /** `bytes` bytes of the run's crawl_objects.tar.gz from `offset`; undefined when missing. */
  readBundle(runId: number, offset: number, bytes: number): Promise<Buffer | undefined>;
  /** The bytes the run's stored files take (artifacts and report); 0 when none. */
  storedBytes(runId: number): Promise<number>;
}

export interface RunDeps {
  instantCrawl: InstantCrawlService;
  live: LiveRunProgress;
  files: RunFiles;
}

/** What every group of management operations shares: the store, the clock and the change feed. */
export abstract class ManagementOperations {
  constructor(protected readonly deps: ManagementDeps) {}

  protected get store(): RecordStore {
    return this.deps.store;
  }

  protected now(): number {
    return this.deps.clock.nowMicros();
  }

  /** Starts an operation within a scope: a service group must exist (NotFoundError naming it). */
  protected async enter(scope: Scope): Promise<void> {
    if (isGroupScope(scope)) await requireServiceGroup(this.store.tenants, scope);
  }

  /**
   * Throws unless the actor may change the resource within the scope (account-roles.ts): the
   * first step of every change, so the API, `kumo admin` and the console obey the same roles.
   */
  protected mayChange(actor: Actor, scope: Scope, resource: ManagedResource): void {
    authorize(actor, scope, CHANGE_NEEDS[resource], resource);
  }

  /**
   * Reports a change of a service group's resource (or of a contract: no servicegroupId): written
   * to the audit log, then told to `onChange`.
   */
  protected async changed(
    actor: Actor,
    action: ChangeAction,
    resource: ManagedResource,
    target: { id: number } & Pick<TenantRef, 'contractId'> & Partial<Pick<TenantRef, 'servicegroupId'>>,
    atMicros: number,
  ): Promise<void> {
    const change: ManagementChange = {
      actor,
      action,
      resource,
      id: target.id,
      contractId: target.contractId,
      servicegroupId: target.servicegroupId ?? null,
      atMicros,
    };
    await this.store.audit.append({
      atMicros,
      contractId: change.contractId,
      servicegroupId: change.servicegroupId,
      actorKind: actor.kind,
      actorVia: actor.kind === 'operator' ? actor.via : 'session',
      actorAccountId: actor.kind === 'account' ? actor.accountId : null,
      actorEmail: actor.kind === 'account' ? actor.email : null,
      action,
      resource,
      resourceId: change.id,
    });
    this.deps.onChange?.(change);
  }
}
