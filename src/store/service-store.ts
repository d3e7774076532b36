import type { ArtifactFileName } from '../artifacts/artifact-files.js';
import type { InstantCrawlerSetting } from '../domain/crawl-setting-schema.js';
import type { RunStateId } from '../domain/run-states.js';
import type { SearchServiceConfig } from '../domain/search-service-config.js';

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
  createContract(name: string, nowMicros: number, id?: number): ContractRecord;
  createServiceGroup(contractId: number, name: string, nowMicros: number, id?: number): ServiceGroupRecord;
  getContract(id: number): ContractRecord | undefined;
  getServiceGroup(contractId: number, servicegroupId: number): ServiceGroupRecord | undefined;
  listContracts(): ContractRecord[];
  listServiceGroups(contractId?: number): ServiceGroupRecord[];
}

export interface ApiKeyRecord extends TenantRef {
  id: number;
  /** First characters of the key, enough to recognise it in a listing; the key itself is never stored. */
  prefix: string;
  label: string;
  createdMicros: number;
  revokedMicros: number | null;
}

export interface ApiKeyStore {
  /** Stores the hash of a new key. */
  insert(tenant: TenantRef, keyHash: Buffer, prefix: string, label: string, nowMicros: number): ApiKeyRecord;
  findActiveByHash(keyHash: Buffer): ApiKeyRecord | undefined;
  list(contractId?: number): ApiKeyRecord[];
  revoke(id: number, nowMicros: number): boolean;
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
  setting: InstantCrawlerSetting;
}

export interface HistoryQuery {
  fromMicros?: number | undefined;
  toMicros?: number | undefined;
  requestId?: number | undefined;
  limit: number;
}

export interface CrawlRunStore {
  /** Stores an instant crawl request and its run, pending. */
  createInstantRun(tenant: TenantRef, setting: InstantCrawlerSetting, nowMicros: number): RunRecord;
  getByRequest(tenant: TenantRef, requestId: number): RunRecord | undefined;
  getRun(runId: number): RunRecord | undefined;
  /** Pending and running runs of the tenant, oldest first, optionally limited to request ids. */
  listActive(tenant: TenantRef, requestIds?: readonly number[]): RunRecord[];
  /** Finished runs, newest first. */
  listHistory(tenant: TenantRef, query: HistoryQuery): RunRecord[];
  /** Takes the oldest pending run and marks it running; undefined when none waits. */
  claimNextPending(nowMicros: number): RunRecord | undefined;
  /** Runs left running by a process that stopped (to resume them). */
  listRunning(): RunRecord[];
  requestCancel(runId: number, nowMicros: number): void;
  updateProgress(runId: number, crawled: number, total: number, nowMicros: number): void;
  finish(
    runId: number,
    state: RunStateId,
    nowMicros: number,
    artifacts: ArtifactFileName[],
    message: string,
  ): void;
  /** Finished runs with artifacts older than the cut-off, to apply retention. */
  listArtifactsEndedBefore(cutoffMicros: number): RunRecord[];
  markArtifactsDeleted(runId: number, nowMicros: number): void;
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
  ): SearchServiceRecord;
  get(id: number): SearchServiceRecord | undefined;
  list(tenant?: TenantRef): SearchServiceRecord[];
  /** Replaces the configuration; false when there is no such service. */
  updateConfig(id: number, config: SearchServiceConfig, nowMicros: number): boolean;
}

export interface ServiceStore {
  tenants: TenantStore;
  searchServices: SearchServiceStore;
  apiKeys: ApiKeyStore;
  runs: CrawlRunStore;
  /** A cheap query proving the store answers (health check). */
  ping(): boolean;
  close(): void;
}
