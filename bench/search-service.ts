/**
 * The real Kumo service over the benchmark's data directory: configured through `loadConfig` as
 * `kumo serve` is, with search service 1 of the demo tenant (created at first start) given the
 * benchmark's categories and drill-down rule.
 */
import { loadConfig } from '../src/config/index.js';
import { DEMO_SEARCH_SERVICE_ID, type RunningKumo, startKumo } from '../src/startup/service.js';
import { systemClock } from '../src/util/index.js';
import { BENCH_SEARCH_CONFIG } from './search-site-map.js';
import type { SearchServiceConfig } from '../src/domain/schemas.js';

export async function startBenchService(
  dataDir: string,
  searchConfig: SearchServiceConfig = BENCH_SEARCH_CONFIG,
): Promise<RunningKumo> {
  const config = loadConfig({
    KUMO_DATA_DIR: dataDir,
    KUMO_HOST: '127.0.0.1',
    KUMO_PORT: '0',
    KUMO_LOG_LEVEL: 'silent',
    // No browser: the search API does not render, and probing one costs a process start.
    KUMO_CHROMIUM_PATH: '/nonexistent/chromium',
  });
  const running = await startKumo(config);
  if (
    !(await running.store.searchServices.updateConfig(
      DEMO_SEARCH_SERVICE_ID,
      searchConfig,
      systemClock.nowMicros(),
    ))
  ) {
    await running.close();
    throw new Error('the demo search service is missing');
  }
  return running;
}

/**
 * Keeps a benchmark's server process up until its parent closes its stdin (also when the parent
 * dies) or sends SIGTERM; prints `{"url": ...}` first, which the parent waits for.
 */
export function serveUntilStdinCloses(running: RunningKumo): void {
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void running.close().then(() => process.exit(0));
  };
  process.stdin.on('end', stop).on('error', stop).resume();
  process.on('SIGTERM', stop);
}
