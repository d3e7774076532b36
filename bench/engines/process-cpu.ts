/**
 * CPU time a server process has used, all its threads together, as the kernel counts it
 * (/proc/<pid>/stat, user and system time): read before and after a load, it gives the server's
 * CPU per request whatever the load generator, sharing the machine, takes. Linux only.
 */
import { readProcFile } from '../process-tree-rss.js';

/** Linux reports these times in USER_HZ ticks, 100 a second on every architecture it runs on. */
const MS_PER_TICK = 10;
/** utime and stime: fields 14 and 15 of stat, counted after the command name's closing `)`. */
const UTIME_AFTER_NAME = 11;

/** Milliseconds of CPU the process used so far; undefined once it is gone. */
export function processCpuMs(pid: number): number | undefined {
  const stat = readProcFile(pid, 'stat');
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[UTIME_AFTER_NAME]) + Number(fields[UTIME_AFTER_NAME + 1])) * MS_PER_TICK;
}
