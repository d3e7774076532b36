import { RunState } from '../../domain/index.js';

/** A crawl run joined with its request (record-rows.ts reads the row). */
export const SELECT_RUN = `SELECT r.*, q.setting_json, q.received_us
  FROM crawl_runs r JOIN crawl_requests q ON q.id = r.request_id`;
export const ACTIVE = `r.state IN (${RunState.pending}, ${RunState.running})`;
/** Instant crawl requests only: scheduled runs share the tables but not the instant API. */
export const INSTANT = 'r.service_setting_id IS NULL';
