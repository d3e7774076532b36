import { TenantWorkPool } from '../../util/index.js';
import type { FacetJobRequest, FacetJobResult } from './facet-job.js';

const WORKER_URL = new URL('./facet-worker.js', import.meta.url);

/**
 * Longest a facet job may run. Ordinary rules take well under a millisecond per URL (200 rules of
 * about a microsecond each), so a job of FACET_JOB_URLS URLs takes a second at most even on a busy
 * machine; rules written to defeat RE2's automaton take about 80 ms per rule on an 8 KB URL
 * (docs/design/url-patterns.md, URL patterns), and are stopped here.
 */
export const FACET_JOB_LIMIT_MS = 10_000;
/**
 * Threads: one service's jobs run one at a time, so with two threads another service's job
 * starts at once while one service's job runs up to its limit.
 */
const FACET_THREADS = 2;

export interface FacetPoolOptions {
  threads?: number;
  jobLimitMs?: number;
}

/**
 * Runs facet jobs (facet-job.ts) in a TenantWorkPool whose owners are search services: one
 * service's jobs run one at a time, in order; services take turns. A job past its limit, or whose
 * thread fails, answers `{ ok: false }`; run never rejects. A service's jobs are not bounded in
 * number here: a FacetIndex gives at most FACET_JOBS_IN_FLIGHT of each segment at once, each
 * segment once per rule set (facet-index.ts).
 */
export class FacetPool extends TenantWorkPool<FacetJobRequest, FacetJobResult> {
  constructor(options: FacetPoolOptions = {}) {
    super({
      worker: WORKER_URL,
      name: 'facet',
      threads: options.threads ?? FACET_THREADS,
      jobLimitMs: options.jobLimitMs ?? FACET_JOB_LIMIT_MS,
    });
  }
}
