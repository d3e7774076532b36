import path from 'node:path';
import type { ServiceLogger } from '../observability/service-logger.js';
import { ArtifactWriteError, storageReason } from '../artifacts/index.js';
import { type ArtifactStore, publishFailureReason } from '../blob/index.js';
import type { CrawlOutcome } from '../crawler/engine.js';
import {
  ArtifactFile,
  RunState,
  type RunStateId,
  joinMessages,
  messageOf,
  onePart,
  type RunMessage,
} from '../domain/index.js';
import type { RunRecord } from '../store/index.js';
import type { SearchFeed } from '../search/index.js';
import type { CrawlExecution } from './execute-crawl.js';
import { noSeedFetched, seedPartOf } from './seed-report.js';
import { hostPartOf } from './host-report.js';
import { keptPagesPartOf } from './kept-pages-report.js';
import { sitemapPartOf } from './sitemap-report.js';

const OUTCOME_STATE: Record<Exclude<CrawlOutcome, 'interrupted'>, RunStateId> = {
  completed: RunState.stopped,
  limit_reached: RunState.stopped,
  cancelled: RunState.stoppedByCancel,
  timed_out: RunState.stoppedByTimeout,
};

/** Instant runs produce artifacts only on a normal end (docs/reference/run-states.md, States). */
const INSTANT_PACKAGES_ON: ReadonlySet<CrawlOutcome> = new Set(['completed', 'limit_reached']);
/**
 * A cancelled scheduled run counts as a normal end and keeps what it crawled
 * (docs/reference/run-states.md, Cancel).
 */
const SCHEDULED_PACKAGES_ON: ReadonlySet<CrawlOutcome> = new Set(['completed', 'limit_reached', 'cancelled']);
/** The outcomes of a run that produce its artifacts. */
export function packagesOnOf(run: RunRecord): ReadonlySet<CrawlOutcome> {
  return run.serviceSettingId === null ? INSTANT_PACKAGES_ON : SCHEDULED_PACKAGES_ON;
}

/** How a run ends: its state and its message (docs/api.md, Run messages). */
export interface RunEnd {
  state: RunStateId;
  message: RunMessage;
}

export interface RunEndingDeps {
  artifacts: ArtifactStore;
  searchFeed?: SearchFeed;
  logger: ServiceLogger;
}

/**
 * How an executed run ends (docs/reference/run-states.md): its state and message once its seeds'
 * answers are judged, its pages fed to its search service, and its files stored.
 */
export class RunEnding {
  constructor(private readonly deps: RunEndingDeps) {}

  /** The state and message to record for the run, after feeding search and storing its files. */
  async endingOf(
    run: RunRecord,
    execution: CrawlExecution,
    searchServiceId: number | undefined,
  ): Promise<RunEnd> {
    const { outcome } = execution;
    // A drained run is handed back or resumed, never ended (RunWorkerPool.execute).
    if (outcome === 'interrupted') throw new Error(`run ${run.id} was interrupted, not ended`);
    const crawled = onePart(
      'crawled',
      { outcome, crawled: execution.progress.crawled },
      `${outcome}: ${execution.progress.crawled} URL(s) crawled`,
    );
    // The message a client reads (docs/api.md, Instant crawl): the seeds that got no answer, if
    // any, what the sitemaps gave, and the hosts that slowed the run down or were given up.
    const seedMessage = messageOf([
      seedPartOf(execution.seeds),
      sitemapPartOf(execution.sitemaps),
      hostPartOf(execution.hosts),
      keptPagesPartOf(execution.keptPages, execution.keptUnasked),
    ]);
    const crawlEnding = this.unreachable(execution)
      ? { state: RunState.troubled, message: seedMessage }
      : searchServiceId === undefined
        ? { state: OUTCOME_STATE[outcome], message: seedMessage }
        : await this.feedSearch(run, searchServiceId, execution, {
            state: OUTCOME_STATE[outcome],
            message: seedMessage,
            crawled,
          });
    return this.publish(run, execution, crawlEnding, crawled);
  }

  /**
   * Stores the run's files before its end is recorded, so an ended run's files are downloadable
   * (docs/design/storage.md, Artifact storage). When they cannot be stored, the run ends 2040 with
   * the reason and what it did before (the troubled end removes what was staged or uploaded).
   */
  private async publish(
    run: RunRecord,
    execution: CrawlExecution,
    ending: RunEnd,
    crawled: RunMessage,
  ): Promise<RunEnd> {
    // A run that packaged nothing has no staging folder, and publish stores nothing.
    if (ending.state === RunState.troubled) return ending;
    try {
      await this.deps.artifacts.publish(run.id);
      return ending;
    } catch (error) {
      this.deps.logger.error({ err: error, run_id: run.id }, 'storing the artifacts of the run failed');
      const reason = publishFailureReason(error);
      return {
        state: RunState.troubled,
        message: joinMessages(
          crawled,
          onePart('artifacts_failed', { reason }, `storing the artifacts failed: ${reason}`),
          ending.message,
        ),
      };
    }
  }

  /**
   * A run that ended normally without a single seed answering could crawl nothing of its site:
   * it ends 2040 with the seeds' reasons (docs/reference/crawl-rules.md, Seeds that cannot be
   * fetched), and a scheduled one leaves its search index as it was.
   */
  private unreachable(execution: CrawlExecution): boolean {
    const normal = execution.outcome === 'completed' || execution.outcome === 'limit_reached';
    return normal && noSeedFetched(execution.seeds);
  }

  /**
   * A scheduled run that ended normally goes into its search service before it is reported
   * finished; when the index cannot be updated the run is troubled and the index stays as it was.
   */
  private async feedSearch(
    run: RunRecord,
    serviceId: number,
    execution: CrawlExecution,
    crawlEnding: RunEnd & { crawled: RunMessage },
  ): Promise<RunEnd> {
    const { state, message, crawled } = crawlEnding;
    const outcomes = execution.pageOutcomes;
    if (
      outcomes === undefined ||
      !execution.artifacts.some((artifact) => artifact.name === ArtifactFile.objects)
    )
      return { state, message };
    const bundleFile = path.join(this.deps.artifacts.folderFor(run.id), ArtifactFile.objects);
    try {
      const summary = await this.deps.searchFeed!.feed(run, serviceId, bundleFile, {
        gone: outcomes.gone,
        failed: outcomes.failed,
        // A run that could not fetch its seeds (site down, robots.txt unavailable) removes nothing it did not see.
        complete: execution.outcome === 'completed' && outcomes.seedsFetched,
      });
      this.deps.logger.info(
        { run_id: run.id, service_id: serviceId, summary: summary.text },
        'search index updated',
      );
      // What the run did to the index is part of its history (docs/api.md, Search feeding).
      return { state, message: joinMessages(message, summary) };
    } catch (error) {
      this.deps.logger.error(
        { err: error, run_id: run.id, service_id: serviceId },
        'search index update failed',
      );
      const reason = (error as Error).message;
      return {
        state: RunState.troubled,
        message: joinMessages(
          crawled,
          onePart(
            'search_feed_failed',
            { service_id: serviceId, reason },
            `updating search service ${serviceId} failed: ${reason}`,
          ),
          message,
        ),
      };
    }
  }
}

/**
 * The 2040 message of a run that threw. A storage error says what failed (ENOSPC, SQLITE_FULL,
 * ...) without the server's paths, which the tenant has no business seeing.
 */
export function failureMessage(error: unknown): RunMessage {
  if (error instanceof ArtifactWriteError) return onePart('text', { text: error.message }, error.message);
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && /^(E[A-Z0-9]+|SQLITE_\w+)$/.test(code)) {
    const reason = storageReason(error);
    return onePart('storage_failure', { reason }, `storage failure: ${reason}`);
  }
  const reason = error instanceof Error ? error.message : String(error);
  return onePart('crawler_failure', { reason }, `crawler failure: ${reason}`);
}
