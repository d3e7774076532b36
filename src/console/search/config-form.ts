/**
 * A search service's configuration (docs/reference/site-search.md, Search services) as the
 * console's form holds it, and back. Lists are edited one item per line; the body sends what was
 * typed, so the service's own checks name what is wrong with it.
 */
import { textLines } from '../text-lines.js';

export const FIELDS = ['title', 'headings', 'description', 'body', 'url', 'links'] as const;

export interface SearchServiceConfig {
  categories?: { name: string; url_pattern: string }[];
  drilldowns?: { url_pattern: string; path: string }[];
  allowed_origins?: string[];
  content_selectors?: { main?: string[]; exclude?: string[] };
  weights?: Partial<Record<(typeof FIELDS)[number], number>>;
  synonyms?: { starter_set?: boolean; groups?: string[][]; rules?: { from: string; to: string[] }[] };
  [other: string]: unknown;
}

export interface ConfigForm {
  categories: { name: string; pattern: string }[];
  drilldowns: { pattern: string; path: string }[];
  origins: string;
  starterSet: boolean;
  groups: string;
  rules: string;
  main: string;
  exclude: string;
  weights: Record<string, string>;
}

/** Labels of a drill-down path: a tab in the configuration, " > " in the form. */
const PATH_SEPARATOR = ' > ';

const words = (line: string) =>
  line
    .split(/[,、]/)
    .map((word) => word.trim())
    .filter((word) => word !== '');

export function formOf(config: SearchServiceConfig): ConfigForm {
  return {
    categories: (config.categories ?? []).map((rule) => ({ name: rule.name, pattern: rule.url_pattern })),
    drilldowns: (config.drilldowns ?? []).map((rule) => ({
      pattern: rule.url_pattern,
      path: rule.path.split('\t').join(PATH_SEPARATOR),
    })),
    origins: (config.allowed_origins ?? []).join('\n'),
    starterSet: config.synonyms?.starter_set === true,
    groups: (config.synonyms?.groups ?? []).map((group) => group.join(', ')).join('\n'),
    rules: (config.synonyms?.rules ?? []).map((rule) => `${rule.from} => ${rule.to.join(', ')}`).join('\n'),
    main: (config.content_selectors?.main ?? []).join('\n'),
    exclude: (config.content_selectors?.exclude ?? []).join('\n'),
    weights: Object.fromEntries(FIELDS.map((field) => [field, config.weights?.[field]?.toString() ?? ''])),
  };
}

/** The configuration for PUT (and the preview): the stored one with the form's members replaced. */
export function configOf(form: ConfigForm, stored: SearchServiceConfig): SearchServiceConfig {
  const config: SearchServiceConfig = { ...stored };
  const set = (key: string, value: unknown, empty: boolean) => {
    if (empty) delete config[key];
    else config[key] = value;
  };
  const categories = form.categories.map((row) => ({
    name: row.name.trim(),
    url_pattern: row.pattern.trim(),
  }));
  set('categories', categories, categories.length === 0);
  const drilldowns = form.drilldowns.map((row) => ({
    url_pattern: row.pattern.trim(),
    path: row.path
      .split('>')
      .map((label) => label.trim())
      .join('\t'),
  }));
  set('drilldowns', drilldowns, drilldowns.length === 0);
  const origins = textLines(form.origins);
  set('allowed_origins', origins, origins.length === 0);
  const main = textLines(form.main);
  const exclude = textLines(form.exclude);
  set(
    'content_selectors',
    { ...(main.length > 0 && { main }), ...(exclude.length > 0 && { exclude }) },
    main.length === 0 && exclude.length === 0,
  );
  const weights = Object.fromEntries(
    FIELDS.filter((field) => (form.weights[field] ?? '').trim() !== '').map((field) => {
      const text = form.weights[field]!.trim();
      return [field, /^\d+(\.\d+)?$/.test(text) ? Number(text) : text];
    }),
  );
  set('weights', weights, Object.keys(weights).length === 0);
  const groups = textLines(form.groups).map(words);
  const rules = textLines(form.rules).map((line) => {
    const [from = '', to = ''] = line.split(/=>|→/);
    return { from: from.trim(), to: words(to) };
  });
  set(
    'synonyms',
    {
      ...(form.starterSet && { starter_set: true }),
      ...(groups.length > 0 && { groups }),
      ...(rules.length > 0 && { rules }),
    },
    !form.starterSet && groups.length === 0 && rules.length === 0,
  );
  return config;
}
