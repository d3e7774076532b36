import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { KumoConfig } from '../config/index.js';
import { fetchLimitsOf } from '../crawler/index.js';
import { rendersPages, resolveCrawlSettings } from '../domain/index.js';
import { systemClock, defaultUserAgent } from '../util/index.js';
import { configuredRunBrowser, hostMessageOf, RunThreads, sitemapMessageOf } from '../worker/index.js';
import { type CrawlOptionValues, crawlSettingOf } from './crawl-options.js';
import { prepareWorkFolder } from './crawl-work-folder.js';
import { ProgressReporter } from './progress-line.js';
import { reportSeedFailures } from './seed-failures.js';

/** `kumo crawl`: one crawl on this machine, no server, artifacts written into --out. */
export async function crawlCommand(
  urls: string[],
  values: CrawlOptionValues,
  config: KumoConfig,
): Promise<number> {
  const setting = crawlSettingOf(urls, values);
  // Resolved here too, so a bad pattern is told before anything starts.
  const settings = resolveCrawlSettings(setting);
  const outFolder = path.resolve(values.out);
  const workFolder = path.join(outFolder, '.kumo-work');
  const resumed = await prepareWorkFolder(workFolder, outFolder, setting, values.fresh ?? false);
  if (resumed !== undefined)
    process.stderr.write(`resuming: ${resumed.done} pages done, ${resumed.queued} queued\n`);
  const cancel = new AbortController();
  const onSignal = () => {
    process.stderr.write('\ninterrupted: stopping; run the same command again to resume\n');
    cancel.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const progress = new ProgressReporter(process.stderr, resumed?.done ?? 0);
  const threads = crawlThreadsOf(config, rendersPages(settings));
  try {
    const execution = await threads.execute(
      {
        runId: 0,
        setting,
        feedsSearch: false,
        workspace: { workFolder, artifactFolder: outFolder },
        deadlineMicros: systemClock.nowMicros() + settings.executionTimeoutSeconds * 1_000_000,
        packagesOn: new Set(['completed', 'limit_reached', 'timed_out']),
        pageOutcomes: false,
        writeReport: false,
      },
      {
        cancelSignal: cancel.signal,
        drainSignal: new AbortController().signal,
        onProgress: (snapshot) => progress.update(snapshot),
      },
    );
    progress.finish(execution.progress);
    // What the sitemaps gave and which hosts slowed the crawl, in the words of a run's history.
    for (const told of [sitemapMessageOf(execution.sitemaps), hostMessageOf(execution.hosts)])
      if (told !== '') process.stderr.write(`${told}\n`);
    if (execution.outcome === 'cancelled') return 130;
    await rm(workFolder, { recursive: true, force: true });
    for (const artifact of execution.artifacts) {
      process.stdout.write(`${path.join(outFolder, artifact.name)}\t${artifact.bytes} bytes\n`);
    }
    if (execution.outcome === 'timed_out')
      process.stderr.write('stopped by --timeout; artifacts hold what was crawled\n');
    return reportSeedFailures(execution.seeds, process.stderr);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await threads.close();
  }
}

/**
 * The crawl runs in a run thread, as the service's runs do (docs/design/crawl.md, `kumo crawl`
 * runs in a thread of its own): its heap is bounded by the thread's limits rather than by the
 * process's flags. With no other run to share hosts with, it paces them on its own.
 */
function crawlThreadsOf(config: KumoConfig, renders: boolean): RunThreads {
  return new RunThreads({
    limits: fetchLimitsOf(config),
    defaultUserAgent: defaultUserAgent(config.botInfoUrl),
    timezone: config.timezone,
    // addCrawlCommand allows private networks for kumo crawl by default: intranet and localhost
    // sites are the point on the user's own machine. The policy still applies when the config
    // narrows it.
    allowPrivateNetworks: config.allowPrivateNetworks,
    heapMb: config.runHeapMb,
    clock: systemClock,
    ...(renders && { browser: configuredRunBrowser(config) }),
    keepWarm: 0,
  });
}
