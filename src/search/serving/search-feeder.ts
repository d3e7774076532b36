import type { IndexingBudget } from '../indexing-budget.js';
import { settingFeed, settingOfFeed, onePart, type RunMessage, isActiveState } from '../../domain/index.js';
import { contentSelectorsOf } from '../content-selectors.js';
import type { SearchIndex } from '../search-index.js';
import type { CrawlRunStore, RunRecord, ServiceSettingStore } from '../../store/index.js';
import type { SearchServices } from './search-services.js';
import type { SearchIndexWriter } from './search-index-writer.js';
import { Turns } from '../../util/index.js';

/** What a run's pages came to, as the feed needs it: pages gone and pages that failed this time. */
export interface FeedOutcomes {
  gone: Set<string>;
  failed: Set<string>;
  /** The run completed and every seed answered: pages it did not reach are gone from the site. */
  complete: boolean;
}

/** Feeds scheduled runs into the search service of their setting: what a run's ending calls. */
export interface SearchFeed {
  /** The search service the run's setting feeds, if any. */
  searchServiceOf(run: RunRecord): Promise<number | undefined>;
  /** Applies the run to the index in one step; returns a summary for the run's message. Throws when it cannot. */
  feed(run: RunRecord, serviceId: number, bundleFile: string, outcomes: FeedOutcomes): Promise<RunMessage>;
}

/**
 * Feeds scheduled runs into the search service their setting names, through the index `kumo
 * serve` searches with, so the new state is visible to the next search once applied. In a cluster
 * (`writer`) a run is applied to this process's working copy under the service's writer lease and
 * published as a new generation, which this process serves before the run is reported finished
 * (docs/design/scale-out.md, Search nodes).
 */
export class SearchFeeder implements SearchFeed {
  /** Per search service, the feed in progress: runs feeding one service are applied one after another. */
  private readonly feeding = new Turns<number>();

  constructor(
    private readonly settings: ServiceSettingStore,
    private readonly runs: CrawlRunStore,
    private readonly services: SearchServices,
    /** The memory a run's indexing may hold (KUMO_INDEX_MEMORY_MB). */
    private readonly budget: IndexingBudget,
    private readonly writer?: SearchIndexWriter,
  ) {}

  async searchServiceOf(run: RunRecord): Promise<number | undefined> {
    if (run.serviceSettingId === null) return undefined;
    return (await this.settings.get(run.serviceSettingId))?.searchServiceId ?? undefined;
  }

  feed(run: RunRecord, serviceId: number, bundleFile: string, outcomes: FeedOutcomes): Promise<RunMessage> {
    // Two runs of settings sharing a search service stage and apply in turn, so the second one
    // compares its pages with the index the first one left.
    return this.feeding.run(serviceId, () => this.feedNow(run, serviceId, bundleFile, outcomes));
  }

  private async feedNow(
    run: RunRecord,
    serviceId: number,
    bundleFile: string,
    outcomes: FeedOutcomes,
  ): Promise<RunMessage> {
    const record = await this.services.record(run.contractId, run.servicegroupId, serviceId);
    if (record === undefined) throw new Error(`search service ${serviceId} is not in this service group`);
    // The service's content selectors as they stand when the run is indexed.
    const selectors = contentSelectorsOf(record.config);
    const apply = (index: SearchIndex) =>
      this.applyRun(index, run, serviceId, bundleFile, outcomes, selectors);
    // The index served here when a writer changes it in place; a process that follows published
    // generations writes a working copy of its own instead and never opens the served one to feed.
    const inPlace =
      this.writer === undefined || this.services.writesInPlace()
        ? (await this.services.get(run.contractId, run.servicegroupId, serviceId))?.search.index
        : undefined;
    // The served index stays open while the run is written into it (SearchServices, idle services).
    const release = inPlace === undefined ? () => undefined : this.services.hold(serviceId);
    try {
      if (this.writer === undefined) {
        if (inPlace === undefined)
          throw new Error(`search service ${serviceId} is not in this service group`);
        return await apply(inPlace);
      }
      const { result, published } = await this.writer.write(serviceId, apply, inPlace);
      await this.services.adopt(serviceId, published.generation, published.file);
      // The run's message is the same whichever store keeps the service (docs/api.md, Search feeding).
      return result;
    } finally {
      release();
    }
  }

  private async applyRun(
    index: SearchIndex,
    run: RunRecord,
    serviceId: number,
    bundleFile: string,
    outcomes: FeedOutcomes,
    selectors: ReturnType<typeof contentSelectorsOf>,
  ): Promise<RunMessage> {
    // Stagings of runs that ended without applying them (stopped for good mid-way) are dropped.
    for (const key of index.writer.stagedRunKeys()) {
      const other = await this.runs.getRun(Number(/^run-(\d+)$/.exec(key)?.[1]));
      if (other === undefined || !isActiveState(other.state)) index.writer.discardStaged(key);
    }
    if (run.serviceSettingId === null) throw new Error(`run ${run.id} has no crawl service setting`);
    await this.retireStaleSettings(index, serviceId);
    const feed = settingFeed(run.serviceSettingId);
    // The bundle reader and HTML parsers are loaded with the first run fed, not by every start.
    const { applyRunToIndex } = await import('../run-index-update.js');
    const summary = await applyRunToIndex(index, runKeyOf(run), feed, bundleFile, outcomes, {
      selectors,
      // Contracts take turns at the extraction threads: one contract's large files never hold up
      // another's run (docs/design/search-engine.md, Document extraction).
      owner: `contract ${run.contractId}`,
      budget: this.budget,
    });
    const values = {
      service_id: serviceId,
      added: summary.added,
      updated: summary.updated,
      unchanged: summary.unchanged,
      removed: summary.removed,
      skipped: summary.skipped.length,
    };
    return onePart(
      'search_feed',
      values,
      `search service ${serviceId}: ${values.added} new, ${values.updated} changed, ` +
        `${values.unchanged} unchanged, ${values.removed} removed, ${values.skipped} skipped`,
    );
  }

  /**
   * Claims of settings that were deleted or now feed another search service: no run of theirs
   * will ever release them, so they are retired (docs/api.md, Search feeding). A document only
   * such a setting claimed becomes legacy: it stays searchable until a feed reaches it.
   */
  private async retireStaleSettings(index: SearchIndex, serviceId: number): Promise<void> {
    const stale: string[] = [];
    for (const feed of index.writer.feeds()) {
      const settingId = settingOfFeed(feed);
      if (settingId !== undefined && (await this.settings.get(settingId))?.searchServiceId !== serviceId)
        stale.push(feed);
    }
    if (stale.length > 0) index.writer.retireFeeds(stale);
  }
}

function runKeyOf(run: RunRecord): string {
  return `run-${run.id}`;
}
