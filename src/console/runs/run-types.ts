import type { RunMessagePart } from './run-message.js';
/** Why a run ended (docs/reference/run-states.md, End reasons). */
export type EndReason = 'completed' | 'documents_limit' | 'time_limit' | 'cancelled';

/** A run as GET …/runs/{id} answers it (docs/api.md, Runs). */
export interface RunView {
  id: number;
  kind: 'instant' | 'scheduled';
  trigger: 'api' | 'schedule' | 'manual';
  instant_crawl_request_id: number | null;
  service_setting_id: number | null;
  service_setting_name: string | null;
  crawl_execution_status_dtype_id: number;
  crawl_execution_status_dtype_name: string;
  is_cancel_request: boolean;
  created_datetime: string;
  start_datetime: string | null;
  end_datetime: string | null;
  crawled_count: number;
  total_count: number;
  seed_urls: string[];
  artifacts: string[];
  message: string;
  /** The message's parts by code and values, to say it in the console's language. */
  message_parts: RunMessagePart[];
  end_reason: EndReason | null;
  /** The run's setting takes screenshots. */
  screenshots: boolean;
  live: {
    crawled: number;
    total: number;
    error_kinds: Record<string, number>;
    pages_per_second: number | null;
    at_datetime: string;
  } | null;
}

export const isActive = (run: RunView) =>
  run.crawl_execution_status_dtype_id === 2010 || run.crawl_execution_status_dtype_id === 2020;
