import type { InstantCrawlerSetting } from '../domain/schemas.js';
import { SeedSites } from './seed-sites.js';

/**
 * What decides where the password of one entry of `authorizations` may be sent
 * (docs/security.md, Stored passwords), as named facts of the setting. A stored password is kept
 * for an update only when these are unchanged: it never goes to a host it was not entered for.
 *
 * - Without `url_pattern` the credential rule (credential-rules.ts) sends it only to the seeds'
 *   sites, decided again for every request: redirect hops, robots.txt, sitemap files and the
 *   requests of rendered pages alike. The seeds' sites are the whole answer; allow patterns and
 *   redirects cannot take it elsewhere.
 * - With `url_pattern` it goes to every URL the pattern matches that the crawl requests, and the
 *   pattern may match any host. Which hosts the crawl requests is decided by the seeds' sites
 *   (and their subdomains), the allow and deny patterns, the listed sitemap files and whether
 *   pages are rendered (a rendered page requests what it likes); all of them count.
 */
export interface CredentialDestination {
  /** The setting's fact, named as the API names it. */
  name: string;
  /** Its values, sorted and without repeats; empty for none. */
  values: string[];
}

/** The facts that decide where the password of `authorizations[index]` may be sent. */
export function credentialDestinations(
  setting: InstantCrawlerSetting,
  index: number,
): CredentialDestination[] {
  const pattern = setting.authorizations?.[index]?.url_pattern ?? null;
  const seedSites = {
    name: 'seed sites',
    values: new SeedSites(httpUrls(setting.seed_urls)).credentialSites(),
  };
  if (pattern === null) return [{ name: 'url_pattern', values: [] }, seedSites];
  return [
    { name: 'url_pattern', values: [pattern] },
    seedSites,
    { name: 'allow_urls_patterns', values: sortedSet(setting.allow_urls_patterns ?? []) },
    { name: 'deny_urls_patterns', values: sortedSet(setting.deny_urls_patterns ?? []) },
    {
      name: 'sitemap_urls sites',
      values: sortedSet(httpUrls(setting.sitemap_urls ?? []).map((raw) => new URL(raw).origin)),
    },
    {
      name: 'rendered pages',
      values: [setting.screenshot != null || setting.wait_type === 2 ? 'yes' : 'no'],
    },
  ];
}

/**
 * How the destinations of the password of `authorizations[index]` differ between the stored
 * setting and the given one, in words (`seed sites: http://a.example → http://b.example`), or
 * undefined when they are the same.
 */
export function credentialDestinationChange(
  stored: InstantCrawlerSetting,
  given: InstantCrawlerSetting,
  index: number,
): string | undefined {
  const before = credentialDestinations(stored, index);
  const after = credentialDestinations(given, index);
  const changes: string[] = [];
  for (const fact of after) {
    const previous = before.find((candidate) => candidate.name === fact.name)?.values ?? [];
    if (sameValues(previous, fact.values)) continue;
    changes.push(`${fact.name}: ${shown(previous)} → ${shown(fact.values)}`);
    // With url_pattern added or removed the other facts compare different rules.
    if (fact.name === 'url_pattern') break;
  }
  return changes.length === 0 ? undefined : changes.join('; ');
}

/** The texts that parse as http(s) URLs; the others are refused by the setting's own checks. */
function httpUrls(raws: readonly string[]): string[] {
  return raws.filter((raw) => {
    try {
      const url = new URL(raw);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  });
}

function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, position) => value === b[position]);
}

function shown(values: readonly string[]): string {
  return values.length === 0 ? 'none' : values.join(', ');
}
