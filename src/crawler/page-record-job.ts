/**
 * The messages between a crawl and its page thread (page-recorder.ts): plain data only. The
 * settings cross as written (compiled patterns do not cross threads) and are compiled again there.
 */
import { type CrawlSettings, compileUrlPattern } from '../domain/index.js';
import type { FrontierEntry, PageCommit } from '../run-data/index.js';
import type { FetchedResult } from './page-record.js';
import type { RenderOutcome } from './page-rendering.js';

/** What preparing a page needs of a run's settings, with its URL patterns as written. */
export type RecordSettingsData = Omit<CrawlSettings, 'allowPatterns' | 'denyPatterns' | 'authorization'> & {
  allowPatterns: string[];
  denyPatterns: string[];
};

export type ToPageThread =
  | { type: 'start'; settings: RecordSettingsData; timezone: string }
  | {
      type: 'page';
      entry: FrontierEntry;
      fetchedUrl: string;
      result: FetchedResult;
      rendering: RenderOutcome | undefined;
      crawlMicros: number;
    };

/** A page ready to commit: its commit and its bundle files compressed as gzip members. */
export interface PreparedPage {
  commit: PageCommit;
  members: Uint8Array[] | undefined;
}

/** The thread's answer to one page, in the order the pages were sent. */
export type PageThreadReply = { ok: true; page: PreparedPage } | { ok: false; reason: string };

/** `ready` once the thread has loaded its code, then one `answer` per page. */
export type FromPageThread = { type: 'ready' } | { type: 'answer'; reply: PageThreadReply };

export function recordSettingsData(settings: CrawlSettings): RecordSettingsData {
  const { allowPatterns, denyPatterns, authorization: _authorization, ...rest } = settings;
  return {
    ...rest,
    allowPatterns: allowPatterns.map((pattern) => pattern.written),
    denyPatterns: denyPatterns.map((pattern) => pattern.written),
  };
}

/** The settings again, patterns compiled; credentials never cross, preparing a page needs none. */
export function recordSettingsOf(data: RecordSettingsData): CrawlSettings {
  return {
    ...data,
    allowPatterns: data.allowPatterns.map(compileUrlPattern),
    denyPatterns: data.denyPatterns.map(compileUrlPattern),
    authorization: null,
  };
}
