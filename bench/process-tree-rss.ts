/**
 * Peak memory of this process and everything it started (Chromium's browser, zygote, renderer,
 * GPU and utility processes), read from /proc: process.memoryUsage() sees only Node itself, and
 * most of a rendering crawl's memory is in Chromium. Linux only.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** PSS is read at every this many samples (every 2.5 s at the default interval). */
const PSS_EVERY = 10;

export interface TreePeaks {
  /** Largest sum of VmRSS over this process and its descendants at one sample. */
  totalRss: number;
  /** Largest VmRSS of this process alone. */
  selfRss: number;
  /** Largest sum of VmRSS of the descendants alone. */
  childRss: number;
  /**
   * Largest sum of Pss at one sample (sampled less often than RSS, see ProcessTreeSampler). Summed RSS counts pages shared between processes (the
   * Chromium binary, shared memory) once per process; PSS splits them, so this is closer to
   * what the machine actually spent.
   */
  totalPss: number;
  /** Most processes seen in the tree at once, this one included. */
  processes: number;
  samples: number;
}

/** Bytes of a `Name:   1234 kB` line of a /proc file, 0 when absent (a zombie has no memory lines). */
export function kilobyteField(text: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) * 1024 : 0;
}

/** A /proc file of a process that may exit between listing and reading; undefined once gone. */
export function readProcFile(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return undefined;
  }
}

/** Parent of every live process. The command name in `stat` may hold spaces or parentheses, so fields are read after its last `)`. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcFile(Number(name), 'stat');
    if (stat === undefined) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parents.set(Number(name), Number(fields[1]));
  }
  return parents;
}

/** `root` and its descendants, leaving out the excluded processes and everything under them. */
function treeOf(root: number, excluded: ReadonlySet<number>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentsByPid()) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  const tree: number[] = [];
  const pending = [root];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    if (excluded.has(pid)) continue;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * Samples the tree of this process every `intervalMs` until stopped. Reads are synchronous, so
 * samples never overlap. RSS comes from `status` (cheap counters); PSS needs `smaps_rollup`,
 * which walks the page tables of Chromium's huge address spaces (tens of milliseconds a sample,
 * CPU the measured crawl would lose), so it is read only every PSS_EVERY-th sample.
 */
export class ProcessTreeSampler {
  private readonly peaks: TreePeaks = {
    totalRss: 0,
    selfRss: 0,
    childRss: 0,
    totalPss: 0,
    processes: 0,
    samples: 0,
  };
  private readonly timer: NodeJS.Timeout;
  private tick = 0;

  /** `excluded`: processes of this tree that are not part of what is measured (the bench site). */
  constructor(
    private readonly excluded: ReadonlySet<number>,
    intervalMs = 250,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Takes a last sample and returns the peaks. */
  stop(): TreePeaks {
    clearInterval(this.timer);
    this.sample();
    return { ...this.peaks };
  }

  private sample(): void {
    const withPss = this.tick++ % PSS_EVERY === 0;
    let rss = 0;
    let pss = 0;
    let childRss = 0;
    let processes = 0;
    for (const pid of treeOf(process.pid, this.excluded)) {
      const status = readProcFile(pid, 'status');
      if (status === undefined) continue;
      processes += 1;
      const processRss = kilobyteField(status, 'VmRSS');
      rss += processRss;
      if (withPss) pss += kilobyteField(readProcFile(pid, 'smaps_rollup') ?? '', 'Pss');
      if (pid === process.pid) this.peaks.selfRss = Math.max(this.peaks.selfRss, processRss);
      else childRss += processRss;
    }
    this.peaks.totalRss = Math.max(this.peaks.totalRss, rss);
    this.peaks.childRss = Math.max(this.peaks.childRss, childRss);
    this.peaks.totalPss = Math.max(this.peaks.totalPss, pss);
    this.peaks.processes = Math.max(this.peaks.processes, processes);
    this.peaks.samples += 1;
  }
}
