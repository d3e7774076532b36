/**
 * The suggest section of `npm run bench:search` after a restart (docs/operations.md, Benchmark):
 * the time from opening the index to its first full suggester, the event loop's longest stall
 * meanwhile (perf_hooks monitorEventLoopDelay), suggest latencies while an index update is written
 * in the same process (as `kumo index` or a crawl's run while `kumo serve` answers), and the
 * process's RSS.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchIndexer } from '../src/search/indexing.js';
import type { IndexedDocument } from '../src/search/index.js';
import { SearchIndex } from '../src/search/local-index.js';
import { SearchActivity, SiteSearch } from '../src/search/site/index.js';
import { systemClock } from '../src/util/index.js';
import { type LatencySummary, summarize } from './latency-stats.js';
import { SUGGEST_PREFIXES } from './search-queries.js';
import { BENCH_SEARCH_CONFIG } from './search-site-map.js';

export interface SuggestBuildFigures {
  openMs: number;
  /** From the open to the first suggester holding the index's phrases. */
  firstSuggesterMs: number;
  /** The event loop's longest delay between the open and that suggester. */
  longestStallMs: number;
  rssAfterBuildBytes: number;
  /** Suggest calls made every 2 ms from the start of the update until its suggester is built. */
  duringUpdate: LatencySummary;
  updateMs: number;
  /** From the end of the update to the suggester of the updated index. */
  rebuildAfterUpdateMs: number;
  longestStallDuringUpdateMs: number;
  rssAfterUpdateBytes: number;
}

const UPDATE_BATCH = 500;
const CALL_INTERVAL_MS = 2;

/** Opens `indexFile` as a restarted service does, then writes `update` while suggest is asked. */
export async function measureSuggestBuild(
  indexFile: string,
  update: readonly IndexedDocument[],
): Promise<SuggestBuildFigures> {
  const delays = monitorEventLoopDelay({ resolution: 1 });
  const openStarted = performance.now();
  const index = new SearchIndex(indexFile);
  const openMs = performance.now() - openStarted;
  try {
    delays.enable();
    const started = performance.now();
    const site = new SiteSearch(index, BENCH_SEARCH_CONFIG, new SearchActivity(index.store, systemClock));
    await site.suggesterBuilt();
    const firstSuggesterMs = performance.now() - started;
    // The monitor's timer must fire once after a stall to record it.
    await sleep(CALL_INTERVAL_MS * 2);
    delays.disable();
    const longestStallMs = delays.max / 1e6;
    const rssAfterBuildBytes = process.memoryUsage().rss;

    delays.reset();
    delays.enable();
    const samples: number[] = [];
    let asking = true;
    const asker = (async () => {
      for (let call = 0; asking; call += 1) {
        const { prefix } = SUGGEST_PREFIXES[call % SUGGEST_PREFIXES.length]!;
        const callStarted = performance.now();
        site.suggest(prefix, 10);
        samples.push(performance.now() - callStarted);
        await sleep(CALL_INTERVAL_MS);
      }
    })();
    const updateStarted = performance.now();
    const indexer = new BatchIndexer(index.writer.forFeed('bench:corpus'), () => undefined, {
      batchSize: UPDATE_BATCH,
    });
    for (const document of update) await indexer.add(document);
    await indexer.finish();
    const updateMs = performance.now() - updateStarted;
    const rebuildStarted = performance.now();
    // The asker's next call finds the index changed and starts the build, which this waits for.
    await sleep(CALL_INTERVAL_MS * 2);
    await site.suggesterBuilt();
    const rebuildAfterUpdateMs = performance.now() - rebuildStarted;
    asking = false;
    await asker;
    await sleep(CALL_INTERVAL_MS * 2);
    delays.disable();
    return {
      openMs,
      firstSuggesterMs,
      longestStallMs,
      rssAfterBuildBytes,
      duringUpdate: summarize(samples),
      updateMs,
      rebuildAfterUpdateMs,
      longestStallDuringUpdateMs: delays.max / 1e6,
      rssAfterUpdateBytes: process.memoryUsage().rss,
    };
  } finally {
    index.close();
  }
}
