import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { FIELDS } from './search-fields.js';
import type { FieldError } from './field-error.js';
import { urlPatternProblem } from './url-pattern-problem.js';
import { schemaFieldErrors } from './schema-errors.js';
import { checkSynonyms, SynonymsSchema } from './synonyms-config.js';
import { parseSelectorList, SelectorSyntaxError } from './css-selector.js';

const MAX_RULES = 200;
const MAX_PATTERN_LENGTH = 1024;
const MAX_LABEL_LENGTH = 200;
const MAX_SELECTORS = 50;

const Selectors = (description: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: MAX_SELECTORS, description }),
  );

const Pattern = Type.String({
  minLength: 1,
  maxLength: MAX_PATTERN_LENGTH,
  description:
    'regular expression (RE2 syntax: no lookaround or backreferences) matched against the page URL',
});

/**
 * The configuration of a search service (docs/reference/site-search.md, Search services): category
 * rules, drill-down rules, allowed origins, field weights, synonyms and content selectors. The same
 * schema serves the admin CLI's JSON file and the management API.
 */
export const SearchServiceConfigSchema = Type.Object(
  {
    categories: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Type.String({ minLength: 1, maxLength: MAX_LABEL_LENGTH }), url_pattern: Pattern },
          { additionalProperties: false },
        ),
        { maxItems: MAX_RULES, description: 'a page is in every category whose pattern matches its URL' },
      ),
    ),
    drilldowns: Type.Optional(
      Type.Array(
        Type.Object(
          {
            url_pattern: Pattern,
            path: Type.String({
              minLength: 1,
              maxLength: 1000,
              description: 'labels from the top joined by a tab; $1..$9 insert capture groups of url_pattern',
            }),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_RULES,
          description: 'without rules a page is labelled by its host and up to two directory levels',
        },
      ),
    ),
    allowed_origins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
        maxItems: MAX_RULES,
        description: 'origins (scheme://host[:port]) whose pages may call the search API; empty: any',
      }),
    ),
    content_selectors: Type.Optional(
      Type.Object(
        {
          main: Selectors(
            'CSS selectors of the main content: text outside every match is kept apart as template text, not shown but in a snippet of a page whose main text does not match',
          ),
          exclude: Selectors('CSS selectors of parts left out of the index and of what is shown'),
        },
        {
          additionalProperties: false,
          description: 'applied when a page is indexed (docs/reference/site-search.md, Content selectors)',
        },
      ),
    ),
    weights: Type.Optional(
      Type.Object(
        Object.fromEntries(
          FIELDS.map((field) => [field, Type.Optional(Type.Number({ minimum: 0, maximum: 100 }))]),
        ),
        { additionalProperties: false, description: 'ranking weight of an occurrence in each field' },
      ),
    ),
    synonyms: Type.Optional(SynonymsSchema),
  },
  { additionalProperties: false },
);

export type SearchServiceConfig = Static<typeof SearchServiceConfigSchema>;

/**
 * Rules a schema cannot express: patterns compile, labels are not empty, origins are origins,
 * synonym members are distinct words (synonyms-config.ts).
 */
export function checkSearchServiceConfig(config: SearchServiceConfig, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}${name}`;
  config.categories?.forEach((rule, index) => {
    const reason = urlPatternProblem(rule.url_pattern);
    if (reason) errors.push({ field: field(`categories[${index}].url_pattern`), reason });
  });
  config.drilldowns?.forEach((rule, index) => {
    const reason = urlPatternProblem(rule.url_pattern);
    if (reason) errors.push({ field: field(`drilldowns[${index}].url_pattern`), reason });
    const labels = rule.path.split('\t');
    if (labels.some((label) => label.trim() === '' && !/\$\d/.test(rule.path))) {
      errors.push({ field: field(`drilldowns[${index}].path`), reason: 'has an empty label' });
    }
    if (labels.length > 10)
      errors.push({ field: field(`drilldowns[${index}].path`), reason: 'at most 10 levels' });
  });
  for (const kind of ['main', 'exclude'] as const) {
    config.content_selectors?.[kind]?.forEach((selector, index) => {
      try {
        parseSelectorList(selector);
      } catch (error) {
        if (!(error instanceof SelectorSyntaxError)) throw error;
        errors.push({
          field: field(`content_selectors.${kind}[${index}]`),
          reason: `selector ${error.message}`,
        });
      }
    });
  }
  config.allowed_origins?.forEach((origin, index) => {
    if (!isOrigin(origin)) {
      errors.push({
        field: field(`allowed_origins[${index}]`),
        reason: `"${origin}" is not an origin like https://www.example.com`,
      });
    }
  });
  if (config.synonyms !== undefined) errors.push(...checkSynonyms(config.synonyms, field('synonyms')));
  return errors;
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

const compiledConfig = TypeCompiler.Compile(SearchServiceConfigSchema);

/** Validates a configuration outside the HTTP layer (admin CLI): the schema, then the rules above. */
export function validateSearchServiceConfig(input: unknown): FieldError[] {
  const errors = schemaFieldErrors(compiledConfig, input, '');
  if (errors.length > 0) return errors;
  return checkSearchServiceConfig(input as SearchServiceConfig);
}
