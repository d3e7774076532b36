import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { InstantCrawlerSetting } from '../domain/schemas.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../util/index.js';
import { workFolderProgress } from '../worker/index.js';
import { crawlArgumentsOf, optionsOfField, shellLine } from './crawl-options.js';
import { UsageError } from './usage-error.js';

/** What `kumo crawl` records in its work folder when a crawl starts, to resume only that crawl. */
const RECORD_FILE = 'kumo-crawl.json';

interface CrawlRecord {
  /** The setting the seeds and options made; a later run resumes only with an equal one. */
  setting: InstantCrawlerSetting;
  /** The same as a command line, for a person looking into the folder. */
  command: string;
}

/** An interrupted crawl to resume: what it had done when it stopped. */
export interface ResumedCrawl {
  done: number;
  queued: number;
}

/**
 * Makes the work folder of `--out` ready (docs/operations.md, "Command line"). With no interrupted
 * crawl there, or with `fresh`, a new crawl starts there. An interrupted crawl of the same seeds
 * and options is resumed; one of other seeds or options is refused with a usage error that says
 * what it is and how to resume it or start afresh, since resuming it would crawl the old seeds
 * with the new options and never the new seeds.
 */
export async function prepareWorkFolder(
  workFolder: string,
  outFolder: string,
  setting: InstantCrawlerSetting,
  fresh: boolean,
): Promise<ResumedCrawl | undefined> {
  const progress = fresh ? undefined : workFolderProgress(workFolder);
  if (progress !== undefined) {
    const recorded = readRecord(workFolder);
    const resumed = { done: progress.crawled, queued: Math.max(0, progress.total - progress.crawled) };
    if (recorded !== undefined && canonicalJson(recorded.setting) === canonicalJson(setting)) return resumed;
    throw new UsageError(refusal(outFolder, resumed, recorded?.setting, setting));
  }
  // Nothing to resume (or --fresh): whatever an earlier crawl left goes, so it cannot mix in.
  await rm(workFolder, { recursive: true, force: true });
  // --out and its work folder hold crawled pages: made private (docs/operations.md, Data directory),
  // the folders above them keep the usual mode.
  await mkdir(path.dirname(outFolder), { recursive: true });
  await mkdir(workFolder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const record: CrawlRecord = { setting, command: commandLine(setting, outFolder) };
  await writeFile(path.join(workFolder, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
  return undefined;
}

function readRecord(workFolder: string): CrawlRecord | undefined {
  const file = path.join(workFolder, RECORD_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CrawlRecord>;
    return typeof parsed.setting === 'object' && parsed.setting !== null
      ? (parsed as CrawlRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

function refusal(
  outFolder: string,
  resumed: ResumedCrawl,
  recorded: InstantCrawlerSetting | undefined,
  wanted: InstantCrawlerSetting,
): string {
  const state = `${resumed.done} pages done, ${resumed.queued} queued`;
  const afresh = 'add --fresh to discard it and start this crawl';
  if (recorded === undefined) {
    return `${outFolder} holds an interrupted crawl (${state}) whose seeds and options were not recorded; ${afresh}`;
  }
  return (
    `${outFolder} holds an interrupted crawl with other ${differences(recorded, wanted)} (${state}); ` +
    `resume it with: ${commandLine(recorded, outFolder)}; or ${afresh}`
  );
}

/** `seeds, --depth` for the seeds and options that differ. */
function differences(recorded: InstantCrawlerSetting, wanted: InstantCrawlerSetting): string {
  const fields = new Set([...Object.keys(recorded), ...Object.keys(wanted)]);
  const differing = [...fields].filter(
    (field) =>
      canonicalJson(recorded[field as keyof InstantCrawlerSetting]) !==
      canonicalJson(wanted[field as keyof InstantCrawlerSetting]),
  );
  const names = [...new Set(differing.map(optionsOfField))];
  return names.length === 0 ? 'options' : names.join(', ');
}

function commandLine(setting: InstantCrawlerSetting, outFolder: string): string {
  return shellLine(['kumo', 'crawl', ...crawlArgumentsOf(setting), '--out', outFolder]);
}

/** JSON with sorted keys and without null members, so equal settings compare equal. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member;
    const entries = Object.entries(member as Record<string, unknown>).filter(([, inner]) => inner != null);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
