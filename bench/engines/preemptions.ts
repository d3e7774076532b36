/**
 * Involuntary context switches of the calling thread: each is a moment the kernel gave its core
 * to another thread. A latency sample during which one happened measures the machine's other
 * work as much as the code; on a shared machine those samples make most of a p99 of fractions
 * of a millisecond. The thread's own count (/proc/thread-self), since the process's includes
 * V8's and libuv's helper threads. Linux only; 0 where it cannot be read.
 */
import { readFileSync } from 'node:fs';

export function threadPreemptions(): number {
  try {
    const status = readFileSync('/proc/thread-self/status', 'utf8');
    return Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}
