import { createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { stringify } from 'csv-stringify';
import { pack as createTarPack } from 'tar-stream';
import type { CrawlSettings } from '../domain/crawl-settings.js';
import type { RunDataStore, UrlRow } from '../store/run-data.js';
import { formatCsvTimestamp } from '../util/timestamps.js';
import { ArtifactFile, type ArtifactFileName } from './artifact-files.js';
import type { ObjectSpool } from './object-spool.js';

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
  const write = async (name: ArtifactFileName, source: () => Readable): Promise<void> => {
    const target = path.join(folder, name);
    const temporary = `${target}.partial`;
    await pipeline(source(), createGzip(), createWriteStream(temporary));
    await rename(temporary, target);
    written.push({ name, bytes: (await stat(target)).size });
  };
  if (settings.collectUrlList) {
    await write(ArtifactFile.urlList, () => csvStream(URL_LIST_COLUMNS, mapRows(store.rows(), timezone)));
  }
  // Screenshots go into the bundle whenever asked for, even when crawl_object is 1 (decisions.md).
  if (settings.collectObjects || settings.screenshot !== null) {
    await write(ArtifactFile.objects, () => tarStream(store, spool));
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

/** RFC 4180 CSV: comma, CRLF, quoted when needed, with a header row (decisions.md "Artifacts"). */
function csvStream(columns: readonly string[], records: Iterable<string[]>): Readable {
  return Readable.from(records).pipe(
    stringify({ header: true, columns: [...columns], record_delimiter: '\r\n' }),
  );
}

function tarStream(store: RunDataStore, spool: ObjectSpool): Readable {
  const tar = createTarPack();
  const addEntry = (name: string, data: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      tar.entry({ name, size: data.length, mode: 0o644 }, data, (error) =>
        error ? reject(error) : resolve(),
      );
    });
  (async () => {
    for (const object of store.objects()) {
      const data = spool.read(object.offset, object.sourceBytes + object.metaBytes);
      await addEntry(object.folder + object.sourceName, data.subarray(0, object.sourceBytes));
      await addEntry(`${object.folder}meta.json`, data.subarray(object.sourceBytes));
    }
    tar.finalize();
  })().catch((error: unknown) => tar.destroy(error as Error));
  return tar as unknown as Readable;
}
