import type { TextedPart } from '../domain/index.js';
import type { SeedOutcomes } from '../run-data/index.js';

/** Seeds named in a message; the others are counted, so a message stays short with 100 seeds. */
const LISTED_SEEDS = 5;

/**
 * Every seed got no HTTP answer (docs/reference/crawl-rules.md, Seeds that cannot be fetched):
 * nothing of the site could be crawled, so a run that otherwise ended normally ends 2040 and
 * `kumo crawl` exits 3.
 */
export function noSeedFetched(seeds: SeedOutcomes): boolean {
  return seeds.seeds > 0 && seeds.unanswered.length === seeds.seeds;
}

/**
 * The run's message about its seeds that got no answer, each with why, in seed order: `no seed
 * could be fetched: <url>: <reason>` when none did, `1 of 3 seeds not fetched: <url>: <reason>`
 * when some did not; '' when every seed got an answer.
 */
export function seedMessageOf(seeds: SeedOutcomes): string {
  return seedPartOf(seeds)?.text ?? '';
}

/** The seeds' part of the run's message with its code and values (docs/api.md, Run messages). */
export function seedPartOf(seeds: SeedOutcomes): TextedPart | undefined {
  const { unanswered } = seeds;
  if (unanswered.length === 0) return undefined;
  const listed = unanswered
    .slice(0, LISTED_SEEDS)
    .map((seed) => `${seed.url}: ${seed.reason}`)
    .join('; ');
  const more = unanswered.length > LISTED_SEEDS ? `; and ${unanswered.length - LISTED_SEEDS} more` : '';
  const detail = `${listed}${more}`;
  return noSeedFetched(seeds)
    ? { code: 'no_seed_fetched', values: { detail }, text: `no seed could be fetched: ${detail}` }
    : {
        code: 'seeds_not_fetched',
        values: { not_fetched: unanswered.length, seeds: seeds.seeds, detail },
        text: `${unanswered.length} of ${seeds.seeds} seeds not fetched: ${detail}`,
      };
}
