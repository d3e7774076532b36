import { isActiveState, RunState, stateName } from '../domain/index.js';
import { crawlUrlListPath } from './instant-crawl-service.js';
import type { RunRecord } from '../store/index.js';
import { formatApiTimestamp } from '../util/index.js';

/**
 * CrawlStatus (docs/reference/instant-crawl.md, CrawlStatus); times absent until they happen.
 * `message` (an extension) says why a pending run waits, when the caller knows (`waiting`).
 */
export function crawlStatusView(run: RunRecord, timezone: string, waiting?: string) {
  return {
    id: run.id,
    instant_crawl_request_id: run.requestId,
    crawl_execution_status_dtype_id: run.state,
    crawl_execution_status_dtype_name: stateName(run.state),
    is_cancel_request: run.isCancelRequest,
    ...(run.startMicros !== null ? { start_datetime: formatApiTimestamp(run.startMicros, timezone) } : {}),
    ...(run.endMicros !== null ? { end_datetime: formatApiTimestamp(run.endMicros, timezone) } : {}),
    crawled_url_count: run.crawledCount,
    total_url_count: run.totalCount,
    ...(waiting !== undefined && run.state === RunState.pending ? { message: waiting } : {}),
  };
}

/**
 * CrawlHistory (docs/reference/instant-crawl.md, CrawlHistory): the status plus the artifact path
 * or `-`, and `message` (an extension) when there is something to say about how the run ended: the
 * cause of a 2040 (a missing browser, a full disk, no seed answering), or the seeds that could not
 * be fetched (docs/api.md, Instant crawl).
 */
export function crawlHistoryView(run: RunRecord, timezone: string) {
  return {
    ...crawlStatusView(run, timezone),
    crawl_url_list_path: crawlUrlListPath(run),
    ...messageOf(run),
  };
}

/** crawl_history of the scheduled crawler API (docs/api.md, Scheduled crawler), `message` as above. */
export function scheduledHistoryView(run: RunRecord, timezone: string) {
  return {
    id: run.id,
    crawl_execution_status_dtype_id: run.state,
    crawl_execution_status_dtype_name: stateName(run.state),
    is_cancel_request: run.isCancelRequest,
    ...(run.startMicros !== null ? { start_datetime: formatApiTimestamp(run.startMicros, timezone) } : {}),
    ...(run.endMicros !== null ? { end_datetime: formatApiTimestamp(run.endMicros, timezone) } : {}),
    crawl_url_list_path: crawlUrlListPath(run),
    ...messageOf(run),
  };
}

/** A finished run's message, when it has one; a run still going has none to tell. */
function messageOf(run: RunRecord): { message?: string } {
  return !isActiveState(run.state) && run.message !== '' ? { message: run.message } : {};
}

/** The history record of any run: the instant shape for instant requests, crawl_history for scheduled runs. */
export function runHistoryView(run: RunRecord, timezone: string) {
  return run.serviceSettingId === null
    ? crawlHistoryView(run, timezone)
    : scheduledHistoryView(run, timezone);
}
