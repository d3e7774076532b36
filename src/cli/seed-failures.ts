import type { SeedOutcomes } from '../run-data/index.js';
import { noSeedFetched } from '../worker/index.js';

/** `kumo crawl`'s exit code when no seed got an answer (docs/operations.md, Logs and progress). */
export const NO_SEED_FETCHED_EXIT_CODE = 3;

/**
 * Tells on stderr which seeds could not be fetched and why; returns the exit code: 0, or
 * NO_SEED_FETCHED_EXIT_CODE when none could (the URL list still has their rows).
 */
export function reportSeedFailures(seeds: SeedOutcomes, stderr: NodeJS.WritableStream): number {
  for (const seed of seeds.unanswered) stderr.write(`seed not fetched: ${seed.url}: ${seed.reason}\n`);
  if (!noSeedFetched(seeds)) return 0;
  stderr.write('kumo crawl: no seed could be fetched\n');
  return NO_SEED_FETCHED_EXIT_CODE;
}
