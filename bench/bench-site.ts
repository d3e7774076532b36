import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { BenchSiteOptions } from './bench-site-pages.js';

export interface BenchSite {
  baseUrl: string;
  /** Process id of the server, so memory figures can leave it out. */
  pid: number;
  requestCount(): Promise<number>;
  close(): Promise<void>;
}

/** Starts the benchmark site in a child process (compiled next to this file) and waits for its port. */
export async function startBenchSite(options: BenchSiteOptions): Promise<BenchSite> {
  const child = fork(new URL('./bench-site-server.js', import.meta.url), [JSON.stringify(options)], {
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
    async close() {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}
