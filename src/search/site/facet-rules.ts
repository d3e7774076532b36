import type { SearchServiceConfig } from '../../domain/schemas.js';
import { type UrlPattern, compileFieldPattern, UnsupportedUrlPatternError } from '../../domain/index.js';

/** Category and drill-down rules of a search service, compiled. */
export interface FacetRules {
  /** One entry per category name, in the order names first appear; any of its patterns places a page in it. */
  categories: { name: string; patterns: UrlPattern[] }[];
  drilldowns: { pattern: UrlPattern; path: string }[];
  /**
   * Rules left out: a configuration stored before patterns ran on RE2 may hold a pattern RE2
   * cannot express. Search goes on without them; the service logs them once at start
   * (docs/operations.md, Patterns stored before RE2).
   */
  skipped: UnsupportedUrlPatternError[];
}

/** The rules of a search service's configuration as written: what a facet thread is sent. */
export type FacetRuleConfig = Pick<SearchServiceConfig, 'categories' | 'drilldowns'>;

/** Compiles the rules of a configuration; a rule whose pattern does not compile is skipped. */
export function compileFacetRules(config: FacetRuleConfig): FacetRules {
  const skipped: UnsupportedUrlPatternError[] = [];
  const compile = (field: string, pattern: string): UrlPattern | undefined => {
    try {
      return compileFieldPattern(field, pattern);
    } catch (error) {
      if (!(error instanceof UnsupportedUrlPatternError)) throw error;
      skipped.push(error);
      return undefined;
    }
  };
  const categories: FacetRules['categories'] = [];
  config.categories?.forEach((rule, index) => {
    const pattern = compile(`categories[${index}].url_pattern`, rule.url_pattern);
    if (pattern === undefined) return;
    const named = categories.find((category) => category.name === rule.name);
    if (named === undefined) categories.push({ name: rule.name, patterns: [pattern] });
    else named.patterns.push(pattern);
  });
  const drilldowns: FacetRules['drilldowns'] = [];
  config.drilldowns?.forEach((rule, index) => {
    const pattern = compile(`drilldowns[${index}].url_pattern`, rule.url_pattern);
    if (pattern !== undefined) drilldowns.push({ pattern, path: rule.path });
  });
  return { categories, drilldowns, skipped };
}

/** Indexes (into `rules.categories`) of the categories a URL is in: every one with a matching rule. */
export function categoriesOf(url: string, rules: FacetRules): number[] {
  const result: number[] = [];
  rules.categories.forEach((category, index) => {
    if (category.patterns.some((pattern) => pattern.test(url))) result.push(index);
  });
  return result;
}

/** Directory levels below the host that the default drill-down labels go down to. */
const DEFAULT_DIRECTORY_LEVELS = 2;

/**
 * The drill-down label paths of a URL (labels joined by a tab): one per matching rule, `$1`..`$9`
 * replaced by the rule's capture groups; without rules, the host and up to two directory levels
 * (docs/reference/site-search.md, Search services): `https://example.com/docs/guide/intro.html` is
 * `example.com\tdocs\tguide`.
 */
export function drilldownPathsOf(url: string, rules: FacetRules): string[] {
  if (rules.drilldowns.length === 0) return [defaultPathOf(url)].filter((path) => path !== '');
  const paths = new Set<string>();
  for (const rule of rules.drilldowns) {
    const match = rule.pattern.exec(url);
    if (match === null) continue;
    const path = rule.path
      .replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? '')
      .split('\t')
      .map((label) => label.trim())
      .filter((label) => label !== '')
      .join('\t');
    if (path !== '') paths.add(path);
  }
  return [...paths];
}

function defaultPathOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '';
  }
  const directories = parsed.pathname
    .split('/')
    .slice(1, -1)
    .filter((segment) => segment !== '');
  const labels = [parsed.host, ...directories.slice(0, DEFAULT_DIRECTORY_LEVELS).map(decodeLabel)];
  return labels.join('\t');
}

function decodeLabel(segment: string): string {
  try {
    return decodeURIComponent(segment).replace(/\t/g, ' ');
  } catch {
    return segment;
  }
}
