/**
 * The rows of crawl runs, crawl service settings, search services and webhooks as the SQLite and PostgreSQL stores read them
 * (the same tables and columns in both), and the records they make: one reading for both stores.
 */
import { partsFromJson, isArtifactFileName, isRunEndReason, type RunStateId } from '../domain/index.js';
import type { Schedule, SearchServiceConfig } from '../domain/schemas.js';
import { type SecretBox, settingFromStoredJson } from '../security/index.js';
import type {
  RunRecord,
  RunTrigger,
  SearchServiceRecord,
  ServiceSettingRecord,
  WebhookRecord,
} from './record-store.js';

/** A crawl run joined with its request, as SELECT_RUN reads it. */
export interface RunRow {
  id: number;
  request_id: number;
  contract_id: number;
  servicegroup_id: number;
  state: number;
  /** BOOLEAN in PostgreSQL, 0 or 1 in SQLite. */
  is_cancel_request: boolean | number;
  created_us: number;
  updated_us: number;
  received_us: number;
  start_us: number | null;
  end_us: number | null;
  crawled_count: number;
  total_count: number;
  artifacts: string;
  artifacts_deleted_us: number | null;
  message: string;
  /** JSON of the message's parts; '' for a run ended before parts were kept. */
  message_parts: string;
  setting_json: string;
  service_setting_id: number | null;
  download_key: string | null;
  trigger: string;
  /** NULL for a run not ended, or ended before end reasons were recorded. */
  end_reason: string | null;
}

export function runRecordOf(row: RunRow, box: SecretBox): RunRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    state: row.state as RunStateId,
    isCancelRequest: row.is_cancel_request === true || row.is_cancel_request === 1,
    createdMicros: row.created_us,
    requestReceivedMicros: row.received_us,
    updatedMicros: row.updated_us,
    startMicros: row.start_us,
    endMicros: row.end_us,
    crawledCount: row.crawled_count,
    totalCount: row.total_count,
    artifacts: row.artifacts.split(',').filter(isArtifactFileName),
    artifactsDeletedMicros: row.artifacts_deleted_us,
    message: row.message,
    messageParts: partsFromJson(row.message_parts),
    setting: settingFromStoredJson(row.setting_json, box),
    serviceSettingId: row.service_setting_id,
    downloadKey: row.download_key,
    trigger: row.trigger as RunTrigger,
    endReason: isRunEndReason(row.end_reason) ? row.end_reason : null,
  };
}

/** A crawl service setting as both stores keep it. */
export interface ServiceSettingRow {
  id: number;
  contract_id: number;
  servicegroup_id: number;
  search_service_id: number | null;
  name: string;
  setting_json: string;
  schedule_json: string;
  last_slot_us: number;
  paused_us: number | null;
  created_us: number;
  updated_us: number;
}

export function serviceSettingRecordOf(row: ServiceSettingRow, box: SecretBox): ServiceSettingRecord {
  return {
    id: row.id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    searchServiceId: row.search_service_id,
    name: row.name,
    setting: settingFromStoredJson(row.setting_json, box),
    schedule: JSON.parse(row.schedule_json) as Schedule,
    lastSlotMicros: row.last_slot_us,
    pausedMicros: row.paused_us,
    createdMicros: row.created_us,
    updatedMicros: row.updated_us,
  };
}

/** A search service as both stores keep it. */
export interface SearchServiceRow {
  id: number;
  contract_id: number;
  servicegroup_id: number;
  name: string;
  config_json: string;
  created_us: number;
  updated_us: number;
}

export function searchServiceRecordOf(row: SearchServiceRow): SearchServiceRecord {
  return {
    id: row.id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    name: row.name,
    config: JSON.parse(row.config_json) as SearchServiceConfig,
    createdMicros: row.created_us,
    updatedMicros: row.updated_us,
  };
}

/** What a webhook secret is sealed for (SecretBox purpose), in both stores. */
export const WEBHOOK_SECRET_PURPOSE = 'webhook-secret';

/** A webhook as both stores keep it; its secret sealed. */
export interface WebhookRow {
  id: number;
  contract_id: number;
  servicegroup_id: number;
  url: string;
  secret: string;
  created_us: number;
}

export function webhookRecordOf(row: WebhookRow, box: SecretBox): WebhookRecord {
  return {
    id: row.id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    url: row.url,
    secret: box.openOrPlain(row.secret, WEBHOOK_SECRET_PURPOSE),
    createdMicros: row.created_us,
  };
}
