import type { ArtifactFileName, RunMessagePart, RunEndReason, RunStateId } from '../domain/index.js';
import type { InstantCrawlerSetting, Schedule, SearchServiceConfig } from '../domain/schemas.js';
import type { AccountStore, AuditStore, OperatorSessionStore, SessionStore } from './account-store.js';
import type { RunLease } from './run-leases.js';
import type { SearchActivityStore } from './search-activity-log.js';
import type { SearchGenerationStore } from './search-generations.js';

/**
 * The service's own records, one interface per resource (tenants, keys, crawl runs). SQLite is
 * the embedded implementation; the interfaces leave room for PostgreSQL.
 */

export interface TenantRef {
  contractId: number;
  servicegroupId: number;
}

export interface ContractRecord {
  id: number;
  name: string;
  createdMicros: number;
}

export interface ServiceGroupRecord {
  id: number;
  contractId: number;
  name: string;
  createdMicros: number;
}

export interface TenantStore {
  createContract(name: string, nowMicros: number, id?: number): Promise<ContractRecord>;
  createServiceGroup(
    contractId: number,
    name: string,
    nowMicros: number,
    id?: number,
  ): Promise<ServiceGroupRecord>;
  getContract(id: number): Promise<ContractRecord | undefined>;
  getServiceGroup(contractId: number, servicegroupId: number): Promise<ServiceGroupRecord | undefined>;
  listContracts(): Promise<ContractRecord[]>;
  listServiceGroups(contractId?: number): Promise<ServiceGroupRecord[]>;
}

export interface ApiKeyRecord extends TenantRef {
  id: number;
  /** First characters of the key, enough to recognise it in a listing; the key itself is never stored. */
  prefix: string;
  label: string;
  createdMicros: number;
  revokedMicros: number | null;
  /** When the key last authenticated a request (recorded at most once a minute); null: never. */
  lastUsedMicros: number | null;
}

export interface ApiKeyStore {
  /** Stores the hash of a new key. */
  insert(
    tenant: TenantRef,
    keyHash: Buffer,
    prefix: string,
    label: string,
    nowMicros: number,
  ): Promise<ApiKeyRecord>;
  findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | undefined>;
  list(contractId?: number): Promise<ApiKeyRecord[]>;
  revoke(id: number, nowMicros: number): Promise<boolean>;
  /** Records that the key authenticated a request now. */
  markUsed(id: number, nowMicros: number): Promise<void>;
}

export interface RunRecord extends TenantRef {
  id: number;
  requestId: number;
  state: RunStateId;
  isCancelRequest: boolean;
  createdMicros: number;
  requestReceivedMicros: number;
  updatedMicros: number;
  startMicros: number | null;
  endMicros: number | null;
  crawledCount: number;
  totalCount: number;
  artifacts: ArtifactFileName[];
  artifactsDeletedMicros: number | null;
  message: string;
  /** The message's parts with their codes and values (docs/api.md, Run messages). */
  messageParts: RunMessagePart[];
  setting: InstantCrawlerSetting;
  /** The crawl service setting of a scheduled run; null for an instant crawl request. */
  serviceSettingId: number | null;
  /** Unguessable string of a scheduled run's download paths; null for instant runs. */
  downloadKey: string | null;
  /** What started the run: the instant crawl API, the schedule, or an operator ("run now"). */
  trigger: RunTrigger;
  /** Why the run ended; null while it runs, when it failed, or when it ended before this was recorded. */
  endReason: RunEndReason | null;
}

export type RunTrigger = 'api' | 'schedule' | 'manual';

/** What a scheduled run is created from. */
export interface ScheduledRunInput {
  setting: ServiceSettingRecord;
  downloadKey: string;
  trigger: Exclude<RunTrigger, 'api'>;
}

/** What taking a schedule slot did (CrawlRunStore.createSlotRun). */
export type SlotRunResult =
  /** The slot was free: taken, and the run stored. */
  | { kind: 'started'; run: RunRecord }
  /** The slot was free and is now taken, but a run of the setting still goes: skipped. */
  | { kind: 'busy' }
  /** Another scheduler (or an earlier tick) took the slot already: nothing stored. */
  | { kind: 'taken' };

export interface SettingHistoryQuery {
  fromMicros: number;
  toMicros: number;
  limit: number;
}

export interface RunListQuery {
  /** Instant crawl requests or runs of crawl service settings; undefined: both. */
  kind?: 'instant' | 'scheduled' | undefined;
  /** `active`: pending or running; `ended`: any end state; a state id: that state only. */
  state?: 'active' | 'ended' | RunStateId | undefined;
  serviceSettingId?: number | undefined;
  /** Runs with a smaller id only (the next page). */
  beforeId?: number | undefined;
  limit: number;
}

export interface HistoryQuery {
  fromMicros?: number | undefined;
  toMicros?: number | undefined;
  requestId?: number | undefined;
  limit: number;
}

/** Thrown by createInstantRun: the tenant already has `limit` pending or running runs. */
export class ActiveRunLimitError extends Error {
  override name = 'ActiveRunLimitError';

  constructor(
    readonly active: number,
    readonly limit: number,
  ) {
    super(`the tenant already has ${active} pending or running crawls (at most ${limit})`);
  }
}

/** What limits claiming besides the order (docs/reference/run-states.md, Waiting). */
export interface ClaimPolicy {
  /** Runs one contract may have running at once, its service groups together; undefined: no cap. */
  maxRunningPerContract?: number | undefined;
  /**
   * The runs that hold a run slot: being executed, or left running by an earlier process and
   * waiting to resume. Only these count toward the cap: a run still 2020 in the store whose end
   * could not be recorded (a failing store) holds nothing until it resumes at the next start.
   * Undefined: every run 2020 in the store counts.
   */
  slotHolderRunIds?: readonly number[] | undefined;
  /**
   * The claimer's lease on the run it takes, in a store shared by several processes
   * (run-leases.ts); a store of one process keeps no leases.
   */
  lease?: RunLease | undefined;
}

export interface RunningCounts {
  /** Running runs of every contract. */
  total: number;
  /** Running runs of the contract asked about. */
  ofContract: number;
}

export interface CrawlRunStore {
  /**
   * Stores an instant crawl request and its run, pending. With `maxActiveRuns`, the tenant's
   * pending and running runs (instant and scheduled) are counted in the same transaction as the
   * insert, and ActiveRunLimitError is thrown instead when there are that many already.
   */
  createInstantRun(
    tenant: TenantRef,
    setting: InstantCrawlerSetting,
    nowMicros: number,
    maxActiveRuns?: number,
  ): Promise<RunRecord>;
  /** How many runs of the tenant (instant and scheduled) are pending or running. */
  countActiveRuns(tenant: TenantRef): Promise<number>;
  /**
   * Stores a pending run of a crawl service setting with a copy of its crawler setting, unless
   * a run of that setting is still pending or running: then undefined (never two at once).
   */
  createScheduledRun(input: ScheduledRunInput, nowMicros: number): Promise<RunRecord | undefined>;
  /**
   * Takes the schedule slot `slotMicros` of the setting (moves its last handled slot there,
   * unless it is there or later already, or the setting was deleted or paused meanwhile: `taken`)
   * and stores the slot's run, with the crawler setting as stored now, as createScheduledRun
   * does, in one transaction: over any number of schedulers and restarts, a slot fires once.
   */
  createSlotRun(input: ScheduledRunInput, slotMicros: number, nowMicros: number): Promise<SlotRunResult>;
  /** The pending or running run of a crawl service setting, if any. */
  activeRunOfSetting(serviceSettingId: number): Promise<RunRecord | undefined>;
  /** Finished runs of a setting started in the range, newest first. */
  listSettingHistory(serviceSettingId: number, query: SettingHistoryQuery): Promise<RunRecord[]>;
  getByDownloadKey(downloadKey: string): Promise<RunRecord | undefined>;
  /** An instant crawl request's run (scheduled runs are not instant requests). */
  getByRequest(tenant: TenantRef, requestId: number): Promise<RunRecord | undefined>;
  getRun(runId: number): Promise<RunRecord | undefined>;
  /** Pending and running runs of the tenant, oldest first, optionally limited to request ids. */
  listActive(tenant: TenantRef, requestIds?: readonly number[]): Promise<RunRecord[]>;
  /** Finished runs, newest first. */
  listHistory(tenant: TenantRef, query: HistoryQuery): Promise<RunRecord[]>;
  /** Per contract: its runs and the URLs they fetched (the operator's usage page). */
  usageByContract(): Promise<Map<number, { runs: number; pagesFetched: number }>>;
  /** The ids of the contract's runs whose artifacts are kept (not removed by retention). */
  runsWithArtifacts(contractId: number): Promise<number[]>;
  /** Every run of the tenant (instant and scheduled), newest first, filtered (the console's list). */
  listRuns(tenant: TenantRef, query: RunListQuery): Promise<RunRecord[]>;
  /**
   * Takes the next pending run in fair order and marks it running; undefined when none may start
   * (docs/reference/run-states.md, Waiting). Contracts take turns: the contract whose latest claim
   * is the oldest goes first (one never served before all others, the older pending run first),
   * and within it the service groups take turns the same way; within a service group the oldest
   * run goes first. A contract with `maxRunningPerContract` runs holding slots (resumed ones
   * included) is passed over. The turns are stored, so they hold across restarts and processes.
   */
  claimNextPending(nowMicros: number, policy?: ClaimPolicy): Promise<RunRecord | undefined>;
  /** Running runs, in all and of one contract (all its service groups): why a pending run waits. */
  countRunning(contractId: number): Promise<RunningCounts>;
  /** Runs left running by a process that stopped (to resume them). */
  listRunning(): Promise<RunRecord[]>;
  /** How many runs are in each state (metrics); every state is present, 0 when none. */
  countByState(): Promise<Record<RunStateId, number>>;
  requestCancel(runId: number, nowMicros: number): Promise<void>;
  /** Ends a run that is still pending (no artifact); false when a worker has claimed it meanwhile. */
  finishIfPending(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    message: string,
    messageParts?: readonly RunMessagePart[],
  ): Promise<boolean>;
  updateProgress(runId: number, crawled: number, total: number, nowMicros: number): Promise<void>;
  finish(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    artifacts: ArtifactFileName[],
    message: string,
    messageParts?: readonly RunMessagePart[],
    endReason?: RunEndReason | null,
  ): Promise<void>;
  /** Finished runs with artifacts older than the cut-off, to apply retention. */
  listArtifactsEndedBefore(cutoffMicros: number): Promise<RunRecord[]>;
  markArtifactsDeleted(runId: number, nowMicros: number): Promise<void>;
}

export interface SearchServiceRecord extends TenantRef {
  id: number;
  name: string;
  config: SearchServiceConfig;
  createdMicros: number;
  updatedMicros: number;
}

export interface SearchServiceStore {
  create(
    tenant: TenantRef,
    name: string,
    config: SearchServiceConfig,
    nowMicros: number,
    id?: number,
  ): Promise<SearchServiceRecord>;
  get(id: number): Promise<SearchServiceRecord | undefined>;
  list(tenant?: TenantRef): Promise<SearchServiceRecord[]>;
  /** Replaces the configuration; false when there is no such service. */
  updateConfig(id: number, config: SearchServiceConfig, nowMicros: number): Promise<boolean>;
}

/** What an operator gives for a crawl service setting. */
export interface ServiceSettingInput {
  name: string;
  setting: InstantCrawlerSetting;
  schedule: Schedule;
  /** The search service the runs feed; null: crawl only. */
  searchServiceId: number | null;
}

export interface ServiceSettingRecord extends TenantRef, ServiceSettingInput {
  id: number;
  /** The latest schedule slot already handled (run or skipped), so each slot starts one run at most. */
  lastSlotMicros: number;
  /** When its schedule was paused; null while the schedule runs (docs/api.md, Scheduled crawler). */
  pausedMicros: number | null;
  createdMicros: number;
  updatedMicros: number;
}

export interface ServiceSettingStore {
  create(
    tenant: TenantRef,
    input: ServiceSettingInput,
    lastSlotMicros: number,
    nowMicros: number,
    id?: number,
  ): Promise<ServiceSettingRecord>;
  /** A setting that was not deleted. */
  get(id: number): Promise<ServiceSettingRecord | undefined>;
  list(tenant?: TenantRef): Promise<ServiceSettingRecord[]>;
  /**
   * Replaces the setting, schedule and search service; false when there is no such setting. The
   * last handled slot moves to `lastSlotMicros` only forward: a slot a scheduler took meanwhile
   * stays taken.
   */
  update(id: number, input: ServiceSettingInput, lastSlotMicros: number, nowMicros: number): Promise<boolean>;
  /** Deletes the setting (its run history stays); false when there is no such setting. */
  delete(id: number, nowMicros: number): Promise<boolean>;
  /** Whether a setting with this id was ever created, deleted ones included. */
  known(id: number): Promise<boolean>;
  /**
   * Pauses the schedule (`pausedMicros`) or resumes it (null, counting slots from `lastSlotMicros`
   * so the slots passed while paused do not run); false when there is no such setting.
   */
  setPaused(
    id: number,
    pausedMicros: number | null,
    lastSlotMicros: number,
    nowMicros: number,
  ): Promise<boolean>;
  /** Settings whose schedule is neither disabled nor paused. */
  listScheduled(): Promise<ServiceSettingRecord[]>;
}

export interface WebhookRecord extends TenantRef {
  id: number;
  url: string;
  secret: string;
  createdMicros: number;
}

export interface WebhookStore {
  create(tenant: TenantRef, url: string, secret: string, nowMicros: number): Promise<WebhookRecord>;
  /** A webhook that was not deleted. */
  get(id: number): Promise<WebhookRecord | undefined>;
  list(tenant?: TenantRef): Promise<WebhookRecord[]>;
  delete(id: number, nowMicros: number): Promise<boolean>;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: number;
  webhookId: number;
  event: string;
  eventId: string;
  body: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string;
  /** How long the last attempt took (until the answer's headers and body, or the failure). */
  lastDurationMs: number | null;
  nextAttemptMicros: number | null;
  createdMicros: number;
  updatedMicros: number;
  deliveredMicros: number | null;
}

/** The result of one delivery attempt. */
export interface AttemptOutcome {
  status: number | null;
  error: string;
  /** How long the attempt took; null when none was made (the webhook was deleted). */
  durationMs: number | null;
  /** Delivered (2xx in time), retry at this time, or give up. */
  next: { kind: 'delivered' } | { kind: 'retry'; atMicros: number } | { kind: 'failed' };
}

/** A delivery due for an attempt and the contract whose webhook it is for. */
export interface DueDelivery {
  id: number;
  contractId: number;
  dueMicros: number;
}

/** The durable delivery queue: a delivery is stored before it is attempted, so a restart resumes it. */
export interface WebhookDeliveryStore {
  enqueue(
    webhookId: number,
    event: string,
    eventId: string,
    body: string,
    nowMicros: number,
  ): Promise<DeliveryRecord>;
  /**
   * The oldest due pending delivery of each contract, except the contracts in `skipContracts`,
   * at most `limit` contracts (those whose oldest delivery is oldest first). Nothing is taken:
   * the dispatcher picks among them whose turn it is (docs/reference/webhooks.md, Delivery and
   * retries) and takes those with claim.
   */
  dueByContract(nowMicros: number, skipContracts: readonly number[], limit: number): Promise<DueDelivery[]>;
  /**
   * Takes the deliveries of `ids` that are still pending and due at `nowMicros` for an attempt:
   * their next attempt time moves to `leaseUntilMicros`, so no other dispatcher (another process)
   * takes them meanwhile; one another dispatcher took meanwhile is left out. recordAttempt sets
   * the time anew; a delivery whose attempt is never recorded (its process died) is due again when
   * the lease ends, so each one is attempted at least once, from any node.
   */
  claim(ids: readonly number[], nowMicros: number, leaseUntilMicros: number): Promise<DeliveryRecord[]>;
  /** The time of the next pending attempt, if any. */
  nextDueMicros(): Promise<number | undefined>;
  recordAttempt(id: number, outcome: AttemptOutcome, nowMicros: number): Promise<void>;
  get(id: number): Promise<DeliveryRecord | undefined>;
  /** Deliveries of a webhook, newest first. */
  list(webhookId: number, limit: number): Promise<DeliveryRecord[]>;
  /** Queues a delivery again for now (whatever its state); false when there is none. */
  replay(id: number, nowMicros: number): Promise<boolean>;
  /** How many deliveries wait for an attempt or a retry (metrics); optional for wrappers. */
  countPending?(): Promise<number>;
}

/** Run leases and checkpoints of a store several processes share (run-leases.ts). */
export interface RunLeaseStore {
  /**
   * Takes a running run whose lease has ended (its worker died or handed it back), the oldest
   * first, with `lease`; undefined when there is none. The runs the caller still executes
   * (`executing`: its own lease lapsed while the store was away) are never taken.
   */
  takeAbandoned(
    lease: RunLease,
    nowMicros: number,
    executing?: readonly number[],
  ): Promise<RunRecord | undefined>;
  /**
   * Extends the owner's leases on `runIds` to `untilMicros`. Answers the runs still held, each
   * with whether a cancel was asked meanwhile; a run missing from the answer is lost to this
   * owner (its lease ended and another worker took it, or it is no longer running).
   */
  renew(owner: string, runIds: readonly number[], untilMicros: number): Promise<Map<number, boolean>>;
  /** Ends the owner's lease on the run now, so another worker takes it at once (a drain). */
  release(owner: string, runId: number): Promise<void>;
  /**
   * Ends every lease, and every hold on a host (store/host-tenures.ts): for a process that knows
   * no other worker runs (the one server a database has while search indexes are not shared), so
   * the runs a crashed process left resume at once.
   */
  releaseAll(): Promise<void>;
  /**
   * Tells this process of every run queued (`pending`) and every cancel asked (`cancelAsked`, the
   * run's id) by any process, as each commits; `connected` whenever the listening connection
   * (re)connects, since what happened while it was away was not told. Resolves once listening.
   */
  listen(
    events: { pending(): void; cancelAsked(runId: number): void },
    connected: () => void,
  ): Promise<{ close(): Promise<void> }>;
  /**
   * Deletes the run's checkpoints (the run has ended). They are written and read by the
   * checkpoint thread, on a connection of its own (pg-run-leases.ts, saveRunCheckpoint).
   */
  dropCheckpoints(runId: number): Promise<void>;
}

export interface RecordStore {
  /** Run leases and checkpoints, in a store several processes share (run-leases.ts). */
  runLeases?: RunLeaseStore;
  /** The query and click logs of search services, in a store several processes share. */
  searchActivity?: SearchActivityStore;
  /** Published generations of search indexes and their writer leases (search-generations.ts). */
  searchGenerations?: SearchGenerationStore;
  tenants: TenantStore;
  searchServices: SearchServiceStore;
  serviceSettings: ServiceSettingStore;
  webhooks: WebhookStore;
  deliveries: WebhookDeliveryStore;
  apiKeys: ApiKeyStore;
  runs: CrawlRunStore;
  /** Console accounts and invitations, their sessions, the audit log (account-store.ts). */
  accounts: AccountStore;
  sessions: SessionStore;
  operatorSessions: OperatorSessionStore;
  audit: AuditStore;
  /** A cheap query proving the store answers (health check). */
  ping(): Promise<boolean>;
  /**
   * Runs `work` while no other process of a shared store runs work given here (start-up steps of
   * processes starting at once, such as creating the demo tenant); absent on a store only one
   * process opens.
   */
  serialized?<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
