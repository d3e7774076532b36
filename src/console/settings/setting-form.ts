/**
 * The setting editor's form state and its conversion to and from the management API's body
 * (docs/reference/crawl-settings.md). Every text box keeps what was typed: the body sends numbers
 * that parse as numbers and any other text as it is, so the server's schema, the one the API
 * uses, names what is wrong with it (docs/console.md, Setting editor).
 */
import { textLines } from '../text-lines.js';

/** The crawler setting as the API shows it (passwords read ********). */
export interface CrawlerSetting {
  version?: string | null;
  seed_urls: string[];
  allow_urls_patterns?: string[] | null;
  deny_urls_patterns?: string[] | null;
  depth_limit?: number | null;
  documents_limit?: number | null;
  base_concurrent_requests?: number | null;
  download_delay?: number | null;
  robots_txt?: boolean | null;
  sitemaps?: boolean | null;
  sitemap_urls?: string[] | null;
  sitemap_lastmod_skip_days?: number | null;
  request_fingerprint?: { keep_query?: number | null; keep_fragment?: number | null } | null;
  crawl_file?: { pdf?: number | null; ms_office?: number | null } | null;
  crawl_result_collection?: {
    crawl_object?: number | null;
    url_list?: number | null;
    link_url_list?: number | null;
  } | null;
  screenshot?: {
    viewport_width?: number | null;
    viewport_height?: number | null;
    render_all?: boolean | null;
  } | null;
  wait_type?: number | null;
  authorizations?: Authorization[] | null;
  user_agent?: string | null;
  language?: string | null;
  timezone?: string | null;
  execution_timeout?: number | null;
}

export interface Authorization {
  type?: 'BASIC' | null;
  url_pattern?: string | null;
  user?: string | null;
  password?: string | null;
}

export interface Schedule {
  interval: number;
  min?: number | null;
  hour?: number | null;
  day_of_week?: number | null;
  day_of_month?: number | null;
}

/** A crawl service setting as GET …/service_settings/{id} answers it. */
export interface ServiceSettingView {
  id: number;
  name: string;
  setting: CrawlerSetting;
  schedule: Schedule;
  service_id: number | null;
  next_run_datetime: string | null;
  paused_datetime: string | null;
  active_run_id: number | null;
}

/** What the editor's controls hold: text as typed, choices as flags. */
export interface SettingForm {
  name: string;
  seeds: string;
  allow: string;
  deny: string;
  depthLimit: string;
  documentsLimit: string;
  includePdf: boolean;
  includeOffice: boolean;
  keepQuery: boolean;
  keepFragment: boolean;
  userAgent: string;
  language: string;
  robotsTxt: boolean;
  /** null: the default (read when the setting feeds a search service). */
  sitemaps: boolean | null;
  sitemapUrls: string;
  sitemapLastmodSkipDays: string;
  concurrency: string;
  downloadDelay: string;
  executionTimeout: string;
  /** `wait_type` as text: '0' plain HTTP, '2' rendered; 1 and 3 stay as found. */
  waitType: string;
  useCredentials: boolean;
  credentialPattern: string;
  credentialUser: string;
  credentialPassword: string;
  collectPages: boolean;
  collectUrlList: boolean;
  collectLinks: boolean;
  screenshots: boolean;
  viewportWidth: string;
  viewportHeight: string;
  fullPage: boolean;
  timezone: string;
  schedule: { interval: string; min: string; hour: string; dayOfWeek: string; dayOfMonth: string };
  /** '' for "crawl only". */
  serviceId: string;
  /** What the form does not edit and sends back unchanged. */
  kept: { version: string | null; moreAuthorizations: Authorization[] };
}

export const EMPTY_FORM: SettingForm = {
  name: '',
  seeds: '',
  allow: '',
  deny: '',
  depthLimit: '',
  documentsLimit: '',
  includePdf: false,
  includeOffice: false,
  keepQuery: true,
  keepFragment: false,
  userAgent: '',
  language: '',
  robotsTxt: true,
  sitemaps: null,
  sitemapUrls: '',
  sitemapLastmodSkipDays: '',
  concurrency: '',
  downloadDelay: '',
  executionTimeout: '',
  waitType: '0',
  useCredentials: false,
  credentialPattern: '',
  credentialUser: '',
  credentialPassword: '',
  collectPages: true,
  collectUrlList: true,
  collectLinks: false,
  screenshots: false,
  viewportWidth: '',
  viewportHeight: '',
  fullPage: false,
  timezone: '',
  schedule: { interval: '2', min: '0', hour: '3', dayOfWeek: '0', dayOfMonth: '1' },
  serviceId: '',
  kept: { version: null, moreAuthorizations: [] },
};

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const lines = (values: readonly string[] | null | undefined) => (values ?? []).join('\n');

/** The form showing a stored setting. */
export function formOf(view: ServiceSettingView): SettingForm {
  const s = view.setting;
  const [credential, ...moreAuthorizations] = s.authorizations ?? [];
  const schedule = view.schedule;
  return {
    name: view.name,
    seeds: lines(s.seed_urls),
    allow: lines(s.allow_urls_patterns),
    deny: lines(s.deny_urls_patterns),
    depthLimit: text(s.depth_limit),
    documentsLimit: text(s.documents_limit),
    includePdf: s.crawl_file?.pdf === 1,
    includeOffice: s.crawl_file?.ms_office === 1,
    keepQuery: s.request_fingerprint?.keep_query !== 0,
    keepFragment: s.request_fingerprint?.keep_fragment === 1,
    userAgent: text(s.user_agent),
    language: text(s.language),
    robotsTxt: s.robots_txt !== false,
    sitemaps: s.sitemaps ?? null,
    sitemapUrls: lines(s.sitemap_urls),
    sitemapLastmodSkipDays: text(s.sitemap_lastmod_skip_days),
    concurrency: text(s.base_concurrent_requests),
    downloadDelay: text(s.download_delay),
    executionTimeout: text(s.execution_timeout),
    waitType: text(s.wait_type ?? 0),
    useCredentials: credential !== undefined,
    credentialPattern: text(credential?.url_pattern),
    credentialUser: text(credential?.user),
    credentialPassword: text(credential?.password),
    collectPages: s.crawl_result_collection?.crawl_object !== 1,
    collectUrlList: s.crawl_result_collection?.url_list !== 1,
    collectLinks: s.crawl_result_collection?.link_url_list === 0,
    screenshots: s.screenshot !== null && s.screenshot !== undefined,
    viewportWidth: text(s.screenshot?.viewport_width),
    viewportHeight: text(s.screenshot?.viewport_height),
    fullPage: s.screenshot?.render_all === true,
    timezone: text(s.timezone),
    schedule: {
      interval: text(schedule.interval),
      min: text(schedule.min ?? 0),
      hour: text(schedule.hour ?? 0),
      dayOfWeek: text(schedule.day_of_week ?? 0),
      dayOfMonth: text(schedule.day_of_month ?? 1),
    },
    serviceId: text(view.service_id),
    kept: { version: s.version ?? null, moreAuthorizations },
  };
}

/**
 * Whether the run reads the sites' sitemaps: as chosen, else the default, which is on for a
 * setting that feeds a search service (docs/reference/crawl-settings.md, sitemaps).
 */
export function readsSitemaps(form: Pick<SettingForm, 'sitemaps' | 'serviceId'>, instant: boolean): boolean {
  return form.sitemaps ?? (!instant && form.serviceId !== '');
}

/** A number when the text is one; other text as it is (the API names the field); '' → absent. */
function numeric(value: string): number | string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}
const optionalText = (value: string) => (value.trim() === '' ? undefined : value.trim());

/** Drops the members left at their default, so the body says only what was chosen. */
function compact<T extends Record<string, unknown>>(value: T): Partial<T> | undefined {
  const kept = Object.entries(value).filter(([, member]) => member !== undefined);
  return kept.length === 0 ? undefined : (Object.fromEntries(kept) as Partial<T>);
}

/** The body of POST / PUT …/service_settings (and of …/check) for the form. */
export function bodyOf(form: SettingForm): Record<string, unknown> {
  const flag = (on: boolean, whenOn: number) => (on ? whenOn : undefined);
  const credential = form.useCredentials
    ? [
        {
          type: 'BASIC',
          url_pattern: optionalText(form.credentialPattern) ?? null,
          user: form.credentialUser,
          password: form.credentialPassword,
        },
      ]
    : [];
  const authorizations = [...credential, ...form.kept.moreAuthorizations];
  const setting = compact({
    version: form.kept.version ?? undefined,
    seed_urls: textLines(form.seeds),
    allow_urls_patterns: textLines(form.allow).length > 0 ? textLines(form.allow) : undefined,
    deny_urls_patterns: textLines(form.deny).length > 0 ? textLines(form.deny) : undefined,
    depth_limit: numeric(form.depthLimit),
    documents_limit: numeric(form.documentsLimit),
    crawl_file: compact({ pdf: flag(form.includePdf, 1), ms_office: flag(form.includeOffice, 1) }),
    request_fingerprint: compact({
      keep_query: flag(!form.keepQuery, 0),
      keep_fragment: flag(form.keepFragment, 1),
    }),
    user_agent: optionalText(form.userAgent),
    language: optionalText(form.language),
    robots_txt: form.robotsTxt ? undefined : false,
    sitemaps: form.sitemaps ?? undefined,
    sitemap_urls: textLines(form.sitemapUrls).length > 0 ? textLines(form.sitemapUrls) : undefined,
    sitemap_lastmod_skip_days: numeric(form.sitemapLastmodSkipDays),
    base_concurrent_requests: numeric(form.concurrency),
    download_delay: numeric(form.downloadDelay),
    execution_timeout: numeric(form.executionTimeout),
    wait_type: form.waitType === '0' ? undefined : Number(form.waitType),
    authorizations: authorizations.length > 0 ? authorizations : undefined,
    crawl_result_collection: compact({
      crawl_object: flag(!form.collectPages, 1),
      url_list: flag(!form.collectUrlList, 1),
      link_url_list: flag(form.collectLinks, 0),
    }),
    screenshot: form.screenshots
      ? {
          viewport_width: numeric(form.viewportWidth) ?? null,
          viewport_height: numeric(form.viewportHeight) ?? null,
          render_all: form.fullPage,
        }
      : undefined,
    timezone: optionalText(form.timezone),
  });
  return {
    name: form.name.trim(),
    setting: { seed_urls: [], ...setting },
    schedule: scheduleOf(form.schedule),
    service_id: form.serviceId === '' ? null : Number(form.serviceId),
  };
}

/** The schedule body: only the fields its interval uses. */
function scheduleOf(schedule: SettingForm['schedule']): Record<string, unknown> {
  const interval = Number(schedule.interval);
  const body: Record<string, unknown> = { interval };
  if (interval >= 1) body.min = numeric(schedule.min) ?? null;
  if (interval >= 2) body.hour = numeric(schedule.hour) ?? null;
  if (interval === 3) body.day_of_week = Number(schedule.dayOfWeek);
  if (interval === 4) body.day_of_month = numeric(schedule.dayOfMonth) ?? null;
  return body;
}
