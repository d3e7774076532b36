/** Crawl bundles (crawl_objects.tar.gz) written by tests, as a run writes them. */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { END_OF_ARCHIVE, encodeTarFiles, type TarFile } from '../../src/artifacts/index.js';

/** One fetched URL of a bundle: its answer and, for a 200, its HTML. */
export interface BundlePage {
  url: string;
  lastUrl?: string;
  status: number;
  html?: string;
  /** When it was fetched (default 2026-06-01T09:30:00+09:00). */
  crawledAt?: string;
  /** Its Last-Modified header, when it sent one. */
  lastModified?: string;
}

/** A crawl_objects.tar.gz as a run writes it: one folder per page with meta.json and source.html. */
export function writeBundle(file: string, pages: readonly BundlePage[]): void {
  const files: TarFile[] = [];
  for (const page of pages) {
    const url = new URL(page.url);
    const folder = `https/${url.host}/${url.pathname.slice(1)}-/-`;
    const meta = {
      url: page.url,
      last_url: page.lastUrl ?? null,
      http_status: page.status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        ...(page.lastModified !== undefined && { 'last-modified': page.lastModified }),
      },
      crawl_datetime: page.crawledAt ?? '2026-06-01T09:30:00.000000+09:00',
    };
    files.push({ name: `${folder}/meta.json`, data: Buffer.from(JSON.stringify(meta)), mtimeSeconds: 0 });
    if (page.html !== undefined)
      files.push({ name: `${folder}/source.html`, data: Buffer.from(page.html), mtimeSeconds: 0 });
  }
  writeFileSync(file, gzipSync(Buffer.concat([encodeTarFiles(files), END_OF_ARCHIVE])));
}
