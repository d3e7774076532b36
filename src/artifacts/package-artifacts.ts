import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { type CrawlSettings, ArtifactFile, type ArtifactFileName } from '../domain/index.js';
import type { RunDataStore, UrlRow } from '../run-data/index.js';
import { formatCsvTimestamp, PRIVATE_FILE_MODE } from '../util/index.js';
import { csvChunks } from './csv.js';
import type { ObjectSpool } from './object-spool.js';
import { END_OF_ARCHIVE } from './tar-entries.js';

export const URL_LIST_COLUMNS = [
  'crawl_url',
  'last_url',
  'is_crawl_ok',
  'crawl_datetime',
  'http_status',
  'last_modified',
  'content_type',
  'content_length',
] as const;

export const LINK_LIST_COLUMNS = ['source_url', 'link_url', 'anchor_text', 'rel'] as const;

export interface PackagedArtifact {
  name: ArtifactFileName;
  bytes: number;
}

/**
 * Writing a run's artifacts failed (disk full, the folder not writable). Its message is the run's
 * 2040 message, which the tenant reads: it says which file and why, but names no server path.
 */
export class ArtifactWriteError extends Error {
  override name = 'ArtifactWriteError';
}

/**
 * A storage error's reason without the path Node puts into it: `ENOSPC: no space left on device`
 * from `ENOSPC: no space left on device, write`, `EEXIST: file already exists` from
 * `EEXIST: file already exists, mkdir '/var/lib/kumo/artifacts/12'`. Other errors keep their message.
 */
export function storageReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) && text.startsWith(`${code}: `)) {
    return text.replace(/, \w+( '.*)?$/s, '');
  }
  return text;
}

/**
 * Writes the artifacts a run's collection flags ask for into `folder`, streaming from the run
 * store and the spool so memory does not depend on the run size. Each file is written under a
 * temporary name and renamed, so a reader never sees half a file.
 */
export async function packageArtifacts(
  store: RunDataStore,
  spool: ObjectSpool,
  settings: CrawlSettings,
  folder: string,
  defaultTimezone: string,
): Promise<PackagedArtifact[]> {
  const timezone = settings.timezone ?? defaultTimezone;
  const written: PackagedArtifact[] = [];
  const write = async (name: ArtifactFileName, source: () => Readable, compressed = false): Promise<void> => {
    const target = path.join(folder, name);
    const temporary = `${target}.partial`;
    try {
      const file = createWriteStream(temporary, { mode: PRIVATE_FILE_MODE });
      if (compressed) await pipeline(source(), file);
      else await pipeline(source(), createGzip(), file);
      await rename(temporary, target);
      written.push({ name, bytes: (await stat(target)).size });
    } catch (error) {
      // A half-written file of a full disk would keep the space the service needs to go on.
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new ArtifactWriteError(`writing ${name} failed: ${storageReason(error)}`, { cause: error });
    }
  };
  if (settings.collectUrlList) {
    await write(ArtifactFile.urlList, () => csvStream(URL_LIST_COLUMNS, mapRows(store.rows(), timezone)));
  }
  // Screenshots go into the bundle whenever asked for, even when crawl_object is 1
  // (docs/reference/artifacts.md, Property files).
  if (settings.collectObjects || settings.screenshot !== null) {
    await write(ArtifactFile.objects, () => Readable.from(bundleMembers(store, spool)), true);
  }
  if (settings.collectLinkList) {
    await write(ArtifactFile.linkList, () =>
      csvStream(
        LINK_LIST_COLUMNS,
        mapIterable(store.links(), (link) => [link.sourceUrl, link.linkUrl, link.anchorText, link.rel]),
      ),
    );
  }
  return written;
}

function* mapIterable<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

function mapRows(rows: Iterable<UrlRow>, timezone: string): Generator<string[]> {
  return mapIterable(rows, (row) => [
    row.crawlUrl,
    row.lastUrl ?? '',
    row.ok ? 'true' : 'false',
    formatCsvTimestamp(row.crawlMicros, timezone),
    row.httpStatus === null ? '' : String(row.httpStatus),
    row.lastModified ?? '',
    row.contentType ?? '',
    row.contentLength === null ? '' : String(row.contentLength),
  ]);
}

/** RFC 4180 CSV with a header row (docs/reference/artifacts.md, url_list.csv.gz). */
function csvStream(columns: readonly string[], records: Iterable<string[]>): Readable {
  return Readable.from(csvChunks(columns, records));
}

/** The bundle: each page's gzip member from the spool in fetch order, then the end-of-archive member. */
function* bundleMembers(store: RunDataStore, spool: ObjectSpool): Generator<Buffer> {
  // Members are grouped into ~1 MiB writes: one write per page would cost a thread-pool round trip each.
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (const object of store.objects()) {
    batch.push(spool.read(object.offset, object.bytes));
    batchBytes += object.bytes;
    if (batchBytes >= 1024 * 1024) {
      yield Buffer.concat(batch, batchBytes);
      batch = [];
      batchBytes = 0;
    }
  }
  batch.push(gzipSync(END_OF_ARCHIVE));
  yield Buffer.concat(batch);
}
