/**
 * The sizes of the attacks: the full ones (`npm run bench:attacks`) and a quick run
 * (`-- --small`) with the same shapes and fewer repetitions.
 */
import { parseArgs } from 'node:util';

export interface AttackSizes {
  /** Each attack is stopped after this long, so the bench ends on a service it holds. */
  capMs: number;
  /** Characters of the attacker's long paths and URLs. */
  pathLength: number;
  /** Pages of A's search service under long paths (facet preview). */
  facetPages: number;
  /** Category rules of the facet preview. */
  facetRules: number;
  /** Characters of the URL tested by the setting check. */
  checkUrlLength: number;
  /** Allow patterns, and as many deny patterns, of the setting check. */
  checkPatterns: number;
  /** Instant crawls requested at once. */
  crawls: number;
  /** Allow patterns, and as many deny patterns, of each crawl. */
  crawlPatterns: number;
  /** Links of the page each crawl starts from, each of `pathLength` characters. */
  longLinks: number;
  signIns: number;
  /** Distinct loopback addresses the sign-ins come from. */
  signInAddresses: number;
  signInConcurrency: number;
  /** Pings of A's webhook to the receiver that never answers. */
  pings: number;
}

const FULL: AttackSizes = {
  capMs: 120_000,
  pathLength: 8000,
  facetPages: 300,
  facetRules: 4,
  checkUrlLength: 7900,
  checkPatterns: 100,
  crawls: 6,
  crawlPatterns: 100,
  longLinks: 20,
  signIns: 4500,
  signInAddresses: 250,
  signInConcurrency: 20,
  pings: 40,
};

const SMALL: AttackSizes = {
  capMs: 45_000,
  pathLength: 8000,
  facetPages: 30,
  facetRules: 4,
  checkUrlLength: 7900,
  checkPatterns: 20,
  crawls: 2,
  crawlPatterns: 20,
  longLinks: 5,
  signIns: 450,
  signInAddresses: 25,
  signInConcurrency: 20,
  pings: 8,
};

export const USAGE = 'usage: npm run bench:attacks [-- --small]\n';

export function attackSizes(args: string[] = process.argv.slice(2)): AttackSizes {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { small: { type: 'boolean', default: false } },
  });
  return values.small ? SMALL : FULL;
}

/**
 * The `index`th pattern of the attacks: just under the size budget of a pattern (1,196 of 1,200
 * instructions, docs/design/url-patterns.md, URL patterns), large enough that RE2's automaton
 * outgrows its memory on a long URL of x and 0 and falls back to simulating the program. The last
 * letter varies so that no two patterns are the same text; none occurs in the URLs.
 */
export function attackPattern(index: number): string {
  const letters = 'qrstuvwyz';
  return `[x0]*x[x0]{600}[x0]{590}${letters[index % letters.length]}`;
}
