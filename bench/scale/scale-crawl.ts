/**
 * The crawl part of `npm run bench:scale`: one `kumo crawl` process over a site, as a user runs
 * it, with its memory and its pace followed the whole way. The site's request count is read every
 * 100 ms (how far the crawl is) and the process's VmRSS and VmHWM from /proc (its memory, every
 * thread included), so the report can say how the rate and the RSS change as the crawl grows.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { BenchSite } from '../bench-site.js';
import { kilobyteField, readProcFile } from '../process-tree-rss.js';
import { KUMO, kumoEnv } from './kumo-command.js';

const SAMPLE_MS = 100;

export interface ScaleCrawlOptions {
  site: BenchSite;
  seed: string;
  /** Documents to fetch (`--limit`); the crawl may end sooner on a smaller site. */
  limit: number;
  concurrency: number;
  /** Folder the artifacts are written to (`--out`), kept for the indexing that follows. */
  out: string;
}

/** One reading: seconds since the start, requests the site answered, the crawl's RSS. */
interface Sample {
  seconds: number;
  served: number;
  rss: number;
}

export interface ScaleCrawlResult {
  samples: Sample[];
  /** Requests the site answered during the crawl (pages, robots.txt, sitemap probes). */
  served: number;
  /** Seconds until the last request the site answered: the crawl itself. */
  crawlSeconds: number;
  /** Seconds from start to exit: the crawl, then its report and artifacts. */
  totalSeconds: number;
  /** Peak RSS the kernel recorded for the process (VmHWM), read at the last sample. */
  peakRss: number;
  /** Largest RSS sampled after the last request: the report and artifact packaging. */
  endPhasePeakRss: number;
  exitCode: number | null;
  /** The last lines `kumo crawl` wrote to stderr (its progress and final counts). */
  lastLines: string[];
}

/** Runs `kumo crawl` on the site and follows it to its exit. */
export async function scaleCrawl(options: ScaleCrawlOptions): Promise<ScaleCrawlResult> {
  const servedBefore = await options.site.requestCount();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      KUMO,
      'crawl',
      options.seed,
      '--out',
      options.out,
      '--limit',
      String(options.limit),
      '--concurrency',
      String(options.concurrency),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: kumoEnv() },
  );
  const lines: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.trim() !== '') lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 50);
    const last = lines.at(-1);
    if (last !== undefined) process.stderr.write(`\r  ${last.slice(0, 150)}`.padEnd(160));
  });
  const samples: Sample[] = [];
  let peakRss = 0;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    const status = child.pid === undefined ? undefined : readProcFile(child.pid, 'status');
    void options.site
      .requestCount()
      .then((count) => {
        if (status === undefined) return;
        peakRss = Math.max(peakRss, kilobyteField(status, 'VmHWM'));
        samples.push({
          seconds: (performance.now() - started) / 1000,
          served: count - servedBefore,
          rss: kilobyteField(status, 'VmRSS'),
        });
      })
      .finally(() => {
        sampling = false;
      });
  }, SAMPLE_MS);
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const totalSeconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  process.stderr.write('\n');
  const served = samples.at(-1)?.served ?? 0;
  const lastRequest = samples.findIndex((sample) => sample.served === served);
  const crawlSeconds = samples[lastRequest]?.seconds ?? totalSeconds;
  const endPhasePeakRss = Math.max(0, ...samples.slice(lastRequest).map((sample) => sample.rss));
  return {
    samples,
    served,
    crawlSeconds,
    totalSeconds,
    peakRss,
    endPhasePeakRss,
    exitCode,
    lastLines: lines.slice(-3),
  };
}

/** Seconds at which the site had answered `count` requests, between the two samples around it. */
export function secondsAt(samples: Sample[], count: number): number {
  const after = samples.findIndex((sample) => sample.served >= count);
  if (after <= 0) return after === 0 ? samples[0]!.seconds : Number.NaN;
  const before = samples[after - 1]!;
  const next = samples[after]!;
  const share = (count - before.served) / Math.max(1, next.served - before.served);
  return before.seconds + share * (next.seconds - before.seconds);
}

/** Pages per second between two request counts. */
export function rateBetween(samples: Sample[], from: number, to: number): number {
  return (to - from) / (secondsAt(samples, to) - secondsAt(samples, from));
}

/** Largest RSS sampled while the site's count was at most `count`. */
export function rssUpTo(samples: Sample[], count: number): number {
  return Math.max(0, ...samples.filter((sample) => sample.served <= count).map((sample) => sample.rss));
}
