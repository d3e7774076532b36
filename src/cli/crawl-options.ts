import type { TSchema } from '@sinclair/typebox';
import {
  type InstantCrawlerSetting,
  InstantCrawlerSettingSchema,
  ScreenshotSchema,
  validateCrawlSetting,
} from '../domain/schemas.js';
import type { FieldError } from '../domain/index.js';
import { UsageError } from './usage-error.js';

/** The options of `kumo crawl` as commander parsed them (numbers still as typed). */
export interface CrawlOptionValues {
  out: string;
  depth?: string;
  limit?: string;
  concurrency?: string;
  delay?: string;
  allow?: string[];
  deny?: string[];
  /** False with --no-robots. */
  robots: boolean;
  sitemaps?: boolean;
  sitemap?: string[];
  userAgent?: string;
  timeout?: string;
  screenshot?: boolean;
  viewport?: string;
  fullPage?: boolean;
  spa?: boolean;
  fresh?: boolean;
}

type NumericOptionName = 'depth' | 'limit' | 'concurrency' | 'delay' | 'timeout';

/** A numeric option, the setting field it fills and that field's schema (the API's range). */
interface NumericOption {
  flag: string;
  field: string;
  schema: TSchema;
}

const settingField = (name: keyof typeof InstantCrawlerSettingSchema.properties) =>
  InstantCrawlerSettingSchema.properties[name];

/** The numeric options of `kumo crawl`, each one field of the instant crawler setting. */
export const NUMERIC_OPTIONS: Record<NumericOptionName, NumericOption> = {
  depth: { flag: '--depth', field: 'crawl.depth_limit', schema: settingField('depth_limit') },
  limit: { flag: '--limit', field: 'crawl.documents_limit', schema: settingField('documents_limit') },
  concurrency: {
    flag: '--concurrency',
    field: 'crawl.base_concurrent_requests',
    schema: settingField('base_concurrent_requests'),
  },
  delay: { flag: '--delay', field: 'crawl.download_delay', schema: settingField('download_delay') },
  timeout: { flag: '--timeout', field: 'crawl.execution_timeout', schema: settingField('execution_timeout') },
};

const VIEWPORT_OPTIONS: readonly NumericOption[] = [
  {
    flag: '--viewport (width)',
    field: 'crawl.screenshot.viewport_width',
    schema: ScreenshotSchema.properties.viewport_width,
  },
  {
    flag: '--viewport (height)',
    field: 'crawl.screenshot.viewport_height',
    schema: ScreenshotSchema.properties.viewport_height,
  },
];

export interface NumericRange {
  min: number;
  max: number;
  wholeNumber: boolean;
}

/** The bounds the API's schema gives a numeric field (`Integer | null` included). */
export function rangeOf(schema: TSchema): NumericRange {
  const candidates = [schema, ...((schema.anyOf as TSchema[] | undefined) ?? [])];
  const numeric = candidates.find((candidate) => candidate.type === 'integer' || candidate.type === 'number');
  if (numeric === undefined) throw new Error('not a numeric schema');
  return {
    min: numeric.minimum as number,
    max: numeric.maximum as number,
    wholeNumber: numeric.type === 'integer',
  };
}

/** `0..1000`, for the help text. */
export function rangeText(option: NumericOptionName): string {
  const range = rangeOf(NUMERIC_OPTIONS[option].schema);
  return `${range.min}..${range.max}`;
}

/**
 * A number as typed, or the text itself when it is not one: the schema then rejects it and the
 * message names the allowed range, as for a number out of range.
 */
function numberOrText(raw: string): number | string {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(raw.trim()) ? Number(raw) : raw;
}

/**
 * The instant crawler setting of `kumo crawl <url...> [options]`, validated with the API's own
 * schema and rules (docs/reference/crawl-settings.md, Fields); every mistake is a usage error
 * naming the option and, for numbers, the allowed range.
 */
export function crawlSettingOf(urls: readonly string[], values: CrawlOptionValues): InstantCrawlerSetting {
  const typed = new Map<string, string>();
  const numeric = (name: NumericOptionName): number | null => {
    const raw = values[name];
    if (raw === undefined) return null;
    typed.set(NUMERIC_OPTIONS[name].field, raw);
    // A value that is not a number reaches the schema as text, which it rejects.
    return numberOrText(raw) as number;
  };
  const setting: InstantCrawlerSetting = {
    seed_urls: [...urls],
    depth_limit: numeric('depth'),
    documents_limit: numeric('limit'),
    base_concurrent_requests: numeric('concurrency'),
    download_delay: numeric('delay'),
    allow_urls_patterns: values.allow ?? null,
    deny_urls_patterns: values.deny ?? null,
    robots_txt: values.robots ? null : false,
    sitemaps: values.sitemaps ? true : null,
    sitemap_urls: values.sitemap ?? null,
    user_agent: values.userAgent ?? null,
    execution_timeout: numeric('timeout'),
    wait_type: values.spa ? 2 : null,
    screenshot: screenshotOption(values, typed),
  };
  const errors = validateCrawlSetting(setting, 'crawl');
  if (errors.length > 0) throw new UsageError(errors.map((error) => cliMessage(error, typed)).join('\n'));
  return setting;
}

/** --screenshot, --viewport WxH and --full-page as the setting's screenshot object. */
function screenshotOption(
  values: CrawlOptionValues,
  typed: Map<string, string>,
): InstantCrawlerSetting['screenshot'] {
  if (!values.screenshot && values.viewport === undefined && !values.fullPage) return null;
  let size: { viewport_width: number; viewport_height: number } | undefined;
  if (values.viewport !== undefined) {
    const match = /^(\d+)x(\d+)$/.exec(values.viewport);
    if (!match)
      throw new UsageError(`--viewport: expected WIDTHxHEIGHT such as 1366x768, got "${values.viewport}"`);
    typed.set(VIEWPORT_OPTIONS[0]!.field, match[1]!);
    typed.set(VIEWPORT_OPTIONS[1]!.field, match[2]!);
    size = { viewport_width: Number(match[1]), viewport_height: Number(match[2]) };
  }
  return { ...size, render_all: values.fullPage ?? false };
}

/** One validation error as the CLI says it: the option's name, and the range for a number. */
function cliMessage(error: FieldError, typed: ReadonlyMap<string, string>): string {
  const option = [...Object.values(NUMERIC_OPTIONS), ...VIEWPORT_OPTIONS].find(
    (o) => o.field === error.field,
  );
  const raw = typed.get(error.field);
  if (option !== undefined && raw !== undefined) {
    const range = rangeOf(option.schema);
    const kind = range.wholeNumber ? 'a whole number' : 'a number';
    return `${option.flag}: must be ${kind} from ${range.min} to ${range.max}, got ${raw}`;
  }
  return `${cliName(error.field)}: ${error.reason}`;
}

function cliName(field: string): string {
  const allow = /^crawl\.allow_urls_patterns\[(\d+)\]$/.exec(field);
  if (allow) return `--allow #${Number(allow[1]) + 1}`;
  const deny = /^crawl\.deny_urls_patterns\[(\d+)\]$/.exec(field);
  if (deny) return `--deny #${Number(deny[1]) + 1}`;
  const sitemap = /^crawl\.sitemap_urls\[(\d+)\]$/.exec(field);
  if (sitemap) return `--sitemap #${Number(sitemap[1]) + 1}`;
  const seed = /^crawl\.seed_urls\[(\d+)\]$/.exec(field);
  if (seed) return `URL #${Number(seed[1]) + 1}`;
  return field.startsWith('crawl.') ? optionsOfField(field.slice('crawl.'.length)) : field;
}

/** The seeds and options of a setting as `kumo crawl` arguments (the inverse of crawlSettingOf). */
export function crawlArgumentsOf(setting: InstantCrawlerSetting): string[] {
  const args = [...setting.seed_urls];
  const add = (flag: string, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined) args.push(flag, String(value));
  };
  add('--depth', setting.depth_limit);
  add('--limit', setting.documents_limit);
  add('--concurrency', setting.base_concurrent_requests);
  add('--delay', setting.download_delay);
  for (const pattern of setting.allow_urls_patterns ?? []) args.push('--allow', pattern);
  for (const pattern of setting.deny_urls_patterns ?? []) args.push('--deny', pattern);
  if (setting.robots_txt === false) args.push('--no-robots');
  if (setting.sitemaps === true) args.push('--sitemaps');
  for (const url of setting.sitemap_urls ?? []) args.push('--sitemap', url);
  add('--user-agent', setting.user_agent);
  add('--timeout', setting.execution_timeout);
  const screenshot = setting.screenshot;
  if (screenshot) {
    if (screenshot.viewport_width != null && screenshot.viewport_height != null)
      args.push('--viewport', `${screenshot.viewport_width}x${screenshot.viewport_height}`);
    else args.push('--screenshot');
    if (screenshot.render_all) args.push('--full-page');
  }
  if (setting.wait_type === 2) args.push('--spa');
  return args;
}

/** Arguments quoted for a POSIX shell where needed, to print a command a user can paste. */
export function shellLine(args: readonly string[]): string {
  return args
    .map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** The option (or options) of `kumo crawl` that set a field of the setting, for messages. */
export function optionsOfField(field: string): string {
  const names: Record<string, string> = {
    seed_urls: 'seeds',
    depth_limit: '--depth',
    documents_limit: '--limit',
    base_concurrent_requests: '--concurrency',
    download_delay: '--delay',
    allow_urls_patterns: '--allow',
    deny_urls_patterns: '--deny',
    robots_txt: '--no-robots',
    sitemaps: '--sitemaps',
    sitemap_urls: '--sitemap',
    user_agent: '--user-agent',
    execution_timeout: '--timeout',
    wait_type: '--spa',
    screenshot: '--screenshot / --viewport / --full-page',
  };
  return names[field] ?? field;
}
