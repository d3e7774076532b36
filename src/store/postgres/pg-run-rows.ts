import { isArtifactFileName } from '../../domain/artifact-files.js';
import { RunState, type RunStateId } from '../../domain/run-states.js';
import type { SecretBox } from '../../security/secret-box.js';
import { settingFromStoredJson } from '../../security/setting-secrets.js';
import type { RunRecord, RunTrigger } from '../service-store.js';

/** A crawl run joined with its request, as SELECT_RUN reads it. */
export interface RunRow {
  id: number;
  request_id: number;
  contract_id: number;
  servicegroup_id: number;
  state: number;
  is_cancel_request: boolean;
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
  setting_json: string;
  service_setting_id: number | null;
  download_key: string | null;
  trigger: string;
}

export const SELECT_RUN = `SELECT r.*, q.setting_json, q.received_us
  FROM crawl_runs r JOIN crawl_requests q ON q.id = r.request_id`;
export const ACTIVE = `r.state IN (${RunState.pending}, ${RunState.running})`;
/** Instant crawl requests only: scheduled runs share the tables but not the instant API. */
export const INSTANT = 'r.service_setting_id IS NULL';

export function runRecordOf(row: RunRow, box: SecretBox): RunRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    contractId: row.contract_id,
    servicegroupId: row.servicegroup_id,
    state: row.state as RunStateId,
    isCancelRequest: row.is_cancel_request,
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
    setting: settingFromStoredJson(row.setting_json, box),
    serviceSettingId: row.service_setting_id,
    downloadKey: row.download_key,
    trigger: row.trigger as RunTrigger,
  };
}
