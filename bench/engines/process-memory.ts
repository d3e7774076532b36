/**
 * Memory of a server process as the kernel counts it (/proc/<pid>/status): the resident set now
 * and its high-water mark since the process started. Linux only, as the servers measured here.
 */
import { kilobyteField, readProcFile } from '../process-tree-rss.js';

export interface ProcessMemory {
  /** VmRSS in bytes. */
  rss: number;
  /** VmHWM in bytes: the largest resident set the process had so far. */
  peakRss: number;
}

/** Undefined once the process is gone. */
export function processMemory(pid: number): ProcessMemory | undefined {
  const status = readProcFile(pid, 'status');
  if (status === undefined) return undefined;
  return { rss: kilobyteField(status, 'VmRSS'), peakRss: kilobyteField(status, 'VmHWM') };
}
