/**
 * The widget's options (docs/reference/widget.md, Options): the `data-*` attributes of the script
 * tag, or the camelCase keys of `KumoSearch.mount`, checked and completed with their defaults.
 */
import type { Transport } from '../client/index.js';
import type { Language } from './texts.js';

export type Layout = 'inline' | 'page';

/** What a page may pass; every member is optional except `service`. */
export interface MountOptions {
  service?: string;
  api?: string;
  lang?: string;
  placeholder?: string;
  perPage?: number | string;
  resultsUrl?: string;
  resultsTarget?: string | HTMLElement;
  layout?: string;
  paramPrefix?: string;
  transport?: string;
  suggestCount?: number | string;
  texts?: string | Record<string, unknown>;
}

export interface WidgetOptions {
  service: string;
  api: string;
  lang: Language;
  placeholder: string | null;
  perPage: number;
  resultsUrl: string | null;
  resultsTarget: HTMLElement | null;
  layout: Layout;
  paramPrefix: string;
  transport: Transport;
  suggestCount: number;
  texts: Record<string, unknown>;
  /** The first option that was refused, named with its reason; the widget shows it. */
  problem: string | null;
}

const DEFAULT_API_PATH = '/api/v1.0/finder_service';
const KEYS: readonly (keyof MountOptions)[] = [
  'service',
  'api',
  'lang',
  'placeholder',
  'perPage',
  'resultsUrl',
  'resultsTarget',
  'layout',
  'paramPrefix',
  'transport',
  'suggestCount',
  'texts',
];

/** The options written as `data-*` attributes of `element` (`data-per-page` → `perPage`). */
export function optionsOfDataset(element: HTMLElement): MountOptions {
  const options: Record<string, string> = {};
  for (const key of KEYS) {
    const value = element.dataset[key];
    if (value !== undefined) options[key] = value;
  }
  return options as MountOptions;
}

/** `<html lang>` or the nearest ancestor's `lang`: Japanese for `ja…`, else English. */
export function languageOf(value: string | null | undefined): Language {
  return /^ja\b/i.test((value ?? '').trim()) ? 'ja' : 'en';
}

function integerIn(value: number | string | undefined, fallback: number, min: number, max: number) {
  if (value === undefined || value === '') return { value: fallback, ok: true };
  const number = typeof value === 'number' ? value : Number(value.trim());
  const ok = Number.isInteger(number) && number >= min && number <= max;
  return { value: ok ? number : fallback, ok };
}

/**
 * Checks `given` and fills the defaults. `scriptOrigin` gives the default API (the host that served
 * the script), `context` the element whose language applies when `lang` is not given.
 */
export function resolveOptions(given: MountOptions, scriptOrigin: string, context: Element): WidgetOptions {
  const problems: string[] = [];
  const perPage = integerIn(given.perPage, 10, 1, 50);
  if (!perPage.ok)
    problems.push(`data-per-page "${String(given.perPage)}" is not a whole number from 1 to 50`);
  const suggestCount = integerIn(given.suggestCount, 8, 0, 20);
  if (!suggestCount.ok)
    problems.push(`data-suggest-count "${String(given.suggestCount)}" is not a whole number from 0 to 20`);
  const layout = given.layout === 'page' ? 'page' : 'inline';
  if (given.layout !== undefined && given.layout !== layout)
    problems.push(`data-layout "${given.layout}" is not inline or page`);
  const transport = (['auto', 'cors', 'jsonp'] as const).find((name) => name === given.transport) ?? 'auto';
  if (given.transport !== undefined && given.transport !== transport)
    problems.push(`data-transport "${given.transport}" is not auto, cors or jsonp`);
  let texts: Record<string, unknown> = {};
  if (typeof given.texts === 'string') {
    try {
      const parsed: unknown = JSON.parse(given.texts);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
      texts = parsed as Record<string, unknown>;
    } catch {
      problems.push('data-texts is not a JSON object');
    }
  } else if (given.texts !== undefined) texts = given.texts;
  let resultsTarget: HTMLElement | null = null;
  if (typeof given.resultsTarget === 'string') {
    resultsTarget = document.querySelector<HTMLElement>(given.resultsTarget);
    if (resultsTarget === null)
      problems.push(`data-results-target "${given.resultsTarget}" matches no element of the page`);
  } else if (given.resultsTarget !== undefined) resultsTarget = given.resultsTarget;
  const prefix = given.paramPrefix ?? 'kumo_';
  if (!/^[\w.-]*$/.test(prefix))
    problems.push(`data-param-prefix "${prefix}" may hold only letters, digits, _ . -`);
  return {
    service: (given.service ?? '').trim(),
    api: given.api?.trim() || `${scriptOrigin}${DEFAULT_API_PATH}`,
    lang: languageOf(
      given.lang ?? context.closest('[lang]')?.getAttribute('lang') ?? document.documentElement.lang,
    ),
    placeholder: given.placeholder ?? null,
    perPage: perPage.value,
    resultsUrl: given.resultsUrl?.trim() || null,
    resultsTarget,
    layout,
    paramPrefix: prefix,
    transport,
    suggestCount: suggestCount.value,
    texts,
    problem: problems[0] ?? null,
  };
}
