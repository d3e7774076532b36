/**
 * The progress of the runs this process is crawling, as their threads report it page by page,
 * for the console's live run page (docs/api.md, Run events). The store keeps the counts too, but
 * writes them at most once a second and without the failures by kind; this board has every
 * report and tells the listeners of a run at once.
 */
export interface LiveProgress {
  /** Rows written (fetched URLs, failures included). */
  crawled: number;
  /** URLs known to the run: fetched or still queued. */
  total: number;
  /** Failed URLs by kind (urlErrorKind). */
  errorKinds: Record<string, number>;
  /** When this report came, in ms since the epoch. */
  atMs: number;
  /** Pages per second over the last few seconds; null until two reports are far enough apart. */
  pagesPerSecond: number | null;
}

export interface ProgressReport {
  crawled: number;
  total: number;
  errorKinds: Record<string, number>;
}

/** How far back the pages-per-second rate looks. */
const RATE_WINDOW_MS = 5000;

type Listener = (progress: LiveProgress) => void;

export class LiveRunProgress {
  private readonly runs = new Map<
    number,
    { latest: LiveProgress; samples: { atMs: number; crawled: number }[] }
  >();
  private readonly listeners = new Map<number, Set<Listener>>();

  report(runId: number, report: ProgressReport, atMs = Date.now()): void {
    const samples = this.runs.get(runId)?.samples ?? [];
    samples.push({ atMs, crawled: report.crawled });
    while (samples.length > 2 && atMs - samples[1]!.atMs >= RATE_WINDOW_MS) samples.shift();
    const oldest = samples[0]!;
    const spanMs = atMs - oldest.atMs;
    const latest: LiveProgress = {
      ...report,
      errorKinds: { ...report.errorKinds },
      atMs,
      pagesPerSecond: spanMs >= 500 ? ((report.crawled - oldest.crawled) * 1000) / spanMs : null,
    };
    this.runs.set(runId, { latest, samples });
    for (const listener of this.listeners.get(runId) ?? []) listener(latest);
  }

  /** The latest report of a run crawling in this process, if any. */
  get(runId: number): LiveProgress | undefined {
    return this.runs.get(runId)?.latest;
  }

  /** The run ended (or left this process): its board entry goes; listeners stay until they leave. */
  end(runId: number): void {
    this.runs.delete(runId);
  }

  /** Calls `listener` with every report of the run; answers the function that stops it. */
  subscribe(runId: number, listener: Listener): () => void {
    const set = this.listeners.get(runId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(runId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }
}
