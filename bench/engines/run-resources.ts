/**
 * The child processes and temporary folders of one bench:engines run. Everything started or
 * made goes through here, so the end of the run, an error and Ctrl-C all leave nothing behind:
 * a server left listening would skew the next run's figures, and the folders hold copies of
 * whole indexes.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How long a child may take to exit after SIGTERM before it is killed. */
const TERM_GRACE_MS = 5_000;

export class RunResources {
  private readonly children = new Set<ChildProcess>();
  private readonly folders: string[] = [];
  private interrupted = false;

  /** A new empty folder under the system's temporary folder, removed by release(). */
  tempFolder(prefix: string): string {
    const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
    this.folders.push(folder);
    return folder;
  }

  /** Stopped by release() unless it has exited by then. */
  track<C extends ChildProcess>(child: C): C {
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Stops every child still running (SIGTERM, then SIGKILL after a grace) and removes the folders. */
  async release(): Promise<void> {
    await Promise.all([...this.children].map((child) => stopChild(child)));
    for (const folder of this.folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  }

  /**
   * On SIGINT or SIGTERM: release everything and exit 130. A second signal does not wait for
   * the children: it kills them and exits at once.
   */
  releaseOnSignals(): void {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (this.interrupted) {
          for (const child of this.children) child.kill('SIGKILL');
          for (const folder of this.folders) rmSync(folder, { recursive: true, force: true });
          process.exit(130);
        }
        this.interrupted = true;
        process.stderr.write(`\n${signal}: stopping the servers and removing the temporary files\n`);
        void this.release().finally(() => process.exit(130));
      });
    }
  }
}

/** Ends `child` and waits for it: SIGTERM, then SIGKILL if it is still there after the grace. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), TERM_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
