import type { CrawlRun } from './kumo-crawl.js';
import type { TreePeaks } from './process-tree-rss.js';

/** Megabytes, the unit of every size in the report: one decimal for memory, two for artifacts. */
export function megabytes(bytes: number, digits = 1): string {
  return `${(bytes / 1024 / 1024).toFixed(digits)} MB`;
}

/** Writes the report in two columns; `width` is the label column, so the values line up. */
export class BenchReport {
  constructor(private readonly width: number) {}

  line(label: string, value: string): void {
    process.stdout.write(`${label.padEnd(this.width)}${value}\n`);
  }

  /** Outcome, counts and speeds of a crawl; `rendered` says the pages went through the browser. */
  crawl(run: CrawlRun, served: number, rendered: boolean): void {
    const { execution, crawlSeconds, totalSeconds } = run;
    const crawled = execution.progress.crawled;
    const kind = rendered ? 'rendered pages/s' : 'pages/s';
    this.line('outcome', execution.outcome);
    this.line('pages crawled', `${crawled} (site served ${served} requests)`);
    if (rendered) this.line('failed pages', String(run.errors));
    this.line('crawl time', `${crawlSeconds.toFixed(2)} s`);
    this.line(`${kind} (crawl)`, (crawled / crawlSeconds).toFixed(1));
    this.line(`${kind} (w/ pack)`, (crawled / totalSeconds).toFixed(1));
    this.line('packaging time', `${(totalSeconds - crawlSeconds).toFixed(2)} s`);
  }

  /**
   * Peaks of the process tree (this Node process and the Chromium it started, not the bench
   * site). Each peak is the largest at one sample, so node and chromium need not add up to tree.
   */
  memory(prefix: string, peaks: TreePeaks): void {
    this.line(
      `${prefix}peak RSS (tree)`,
      `${megabytes(peaks.totalRss)} (up to ${peaks.processes} processes, ${peaks.samples} samples)`,
    );
    this.line(`${prefix}peak RSS (node)`, megabytes(peaks.selfRss));
    this.line(`${prefix}peak RSS (chromium)`, megabytes(peaks.childRss));
    this.line(`${prefix}peak PSS (tree)`, megabytes(peaks.totalPss));
  }

  /** Every artifact with its size; the artifact column is never narrower than it always was. */
  artifacts(run: CrawlRun): void {
    for (const artifact of run.execution.artifacts) {
      process.stdout.write(
        `${artifact.name.padEnd(Math.max(22, this.width))}${megabytes(artifact.bytes, 2)}\n`,
      );
    }
  }
}
