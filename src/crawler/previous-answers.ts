/**
 * What the previous run of a scheduled setting fetched (docs/reference/crawl-rules.md,
 * Conditional re-crawls): its report says where each page's files sit in its bundle, and the
 * page's meta.json there holds the validators (ETag, Last-Modified) to ask again with. A 304
 * answer then keeps that stored copy: its bytes are read back from the previous bundle, one gzip
 * member per page, instead of downloading the page again. Where the bundle is kept (a local file,
 * or object storage) is the member reader's business (bundle-members.ts).
 */
import { existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { extract } from 'tar-stream';
import { END_OF_ARCHIVE } from '../artifacts/index.js';
import type { MemberReader } from './bundle-members.js';

/**
 * The files of the previous run: its report (SQLite, a local file) and its crawl_objects.tar.gz,
 * a local file read in place, or (`bundleFile` undefined) an object in object storage whose
 * members the service reads by range for the run (docs/design/crawl.md, Crawl threads).
 */
export interface PreviousRunFiles {
  reportFile: string;
  bundleFile?: string;
}

/** A page as the previous run stored it. */
export interface PreviousPage {
  /** The response headers the stored copy came with. */
  headers: Record<string, string>;
  /** The bytes as received (source.<ext>). */
  body: Buffer;
  /** When the copy was fetched whole, as meta.json writes times: its date when nothing else dates it. */
  storedAt: string | undefined;
  /**
   * When the site last answered for the copy (its 200, or a 304 confirming it), as meta.json
   * writes times: a copy kept without a request carries the answer before.
   */
  confirmedAt: string | undefined;
  /** Where the page ended up after redirects (meta.json `last_url`); null when where it was asked. */
  lastUrl: string | null;
}

interface Member {
  offset: number;
  bytes: number;
}

interface StoredMeta {
  http_status?: number | null;
  headers?: Record<string, string>;
  crawl_datetime?: string;
  /** Set on a copy a 304 kept: when it was fetched whole. */
  stored_datetime?: string;
  /** Set on a copy kept without a request: when the site last answered for it. */
  confirmed_datetime?: string;
  last_url?: string | null;
}

export class PreviousAnswers {
  private constructor(
    private readonly members: Map<string, Member>,
    private readonly bundle: MemberReader,
  ) {}

  /**
   * The previous run's answers from its report and a reader of its bundle, or undefined when the
   * report is not here (deleted by retention meanwhile) or cannot be read. The reader is closed
   * with the answers, or at once when there are none.
   */
  static open(reportFile: string, bundle: MemberReader): PreviousAnswers | undefined {
    try {
      return new PreviousAnswers(PreviousAnswers.membersOf(reportFile), bundle);
    } catch {
      // Unreadable: the run fetches every page whole.
      bundle.close();
      return undefined;
    }
  }

  private static membersOf(reportFile: string): Map<string, Member> {
    if (!existsSync(reportFile)) throw new Error('the previous run has no report');
    const report = new Database(reportFile, { readonly: true, fileMustExist: true });
    const members = new Map<string, Member>();
    try {
      const rows = report
        .prepare<[], { url: string; offset: number; bytes: number }>(
          `SELECT url, member_offset AS offset, member_bytes AS bytes FROM urls
           WHERE ok = 1 AND member_offset IS NOT NULL ORDER BY id`,
        )
        .iterate();
      for (const row of rows) members.set(row.url, { offset: row.offset, bytes: row.bytes });
    } finally {
      report.close();
    }
    return members;
  }

  /**
   * The page the previous run stored for `url`, or undefined when it stored none, or when its
   * copy cannot be read: the page is then fetched as if there were none.
   */
  async pageOf(url: string): Promise<PreviousPage | undefined> {
    const member = this.members.get(url);
    if (member === undefined) return undefined;
    try {
      return await this.readPage(member);
    } catch {
      return undefined;
    }
  }

  private async readPage(member: Member): Promise<PreviousPage | undefined> {
    const packed = await this.bundle.read(member.offset, member.bytes);
    if (packed === undefined) return undefined;
    const files = await tarFilesOf(gunzipSync(packed));
    const metaFile = [...files.entries()].find(([name]) => name.endsWith('/meta.json'))?.[1];
    const source = [...files.entries()].find(([name]) => /\/source\.[^/]+$/.test(name))?.[1];
    if (metaFile === undefined || source === undefined) return undefined;
    const meta = JSON.parse(metaFile.toString('utf8')) as StoredMeta;
    const status = meta.http_status ?? 0;
    // A copy kept by an earlier 304 is as good as the 200 it came from.
    if (!((status >= 200 && status < 300) || status === 304)) return undefined;
    return {
      headers: meta.headers ?? {},
      body: source,
      storedAt: meta.stored_datetime ?? meta.crawl_datetime,
      confirmedAt: meta.confirmed_datetime ?? meta.crawl_datetime,
      lastUrl: meta.last_url ?? null,
    };
  }

  close(): void {
    this.bundle.close();
  }
}

/** The request headers asking whether the stored copy is still current; undefined without validators. */
export function conditionalHeadersOf(stored: Record<string, string>): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  if (stored.etag !== undefined) headers['if-none-match'] = stored.etag;
  if (stored['last-modified'] !== undefined) headers['if-modified-since'] = stored['last-modified'];
  return Object.keys(headers).length === 0 ? undefined : headers;
}

async function tarFilesOf(tar: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extractor = extract();
  const done = (async () => {
    for await (const entry of extractor) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(entry.header.name, Buffer.concat(chunks));
    }
  })();
  // A page's member holds its entries only; the archive's end is a member of its own.
  extractor.end(Buffer.concat([tar, END_OF_ARCHIVE]));
  await done;
  return files;
}
