import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

/**
 * Lowers the CPU priority (raises the nice value) of the calling thread only, where the system
 * allows it (Linux: /proc/thread-self names the thread, and a nice value set on a thread's id
 * applies to that thread). False where it cannot: the thread then keeps the process's priority.
 */
export function lowerThreadPriority(nice: number): boolean {
  try {
    const threadId = Number(path.basename(readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
