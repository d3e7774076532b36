import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { BenchSiteOptions } from './bench-site-pages.js';

export interface BenchSite {
  baseUrl: string;
  /** Process id of the server, so memory figures can leave it out. */
  pid: number;
  requestCount(): Promise<number>;
  /** Revises `share` of the pages from now on (site-revisions.ts); revision `number` replaces the last. */
  revise(number: number, share: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the benchmark site in a child process (compiled next to this file) and waits for its port. */
export function startBenchSite(options: BenchSiteOptions): Promise<BenchSite> {
  return forkSite('./bench-site-server.js', JSON.stringify(options));
}

/** Serves a folder of HTML (a local copy of a documentation site) from a child process. */
export function startFolderSite(folder: string): Promise<BenchSite> {
  return forkSite('./folder-site-server.js', folder);
}

/** A site server script of this folder in a child process, so serving does not compete with the crawler's thread. */
async function forkSite(script: string, argument: string): Promise<BenchSite> {
  const child = fork(new URL(script, import.meta.url), [argument], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return {
    baseUrl: `http://127.0.0.1:${message.port}`,
    pid: child.pid!,
    async requestCount() {
      child.send({ type: 'count' });
      const [reply] = (await once(child, 'message')) as [{ count: number }];
      return reply.count;
    },
    async revise(number: number, share: number) {
      child.send({ type: 'revise', number, share });
      await once(child, 'message');
    },
    async close() {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}
