import type { TextedPart } from '../domain/index.js';
import type { SitemapFileRecord } from '../run-data/index.js';

/** Problem files named in a message; the others are counted. */
const LISTED_PROBLEMS = 5;
/** A longer file URL is cut in a message, which stays short whatever a site's URLs are. */
const SHOWN_URL_CHARS = 200;

/**
 * The run's message about its sitemaps (docs/reference/crawl-rules.md, Sitemaps): `sitemaps: 3 of
 * 4 file(s) read, 1204 URL(s) listed, 1180 new to the crawl`, then the files that had a problem,
 * each with it. '' when the run read no sitemap.
 */
export function sitemapMessageOf(files: readonly SitemapFileRecord[] | undefined): string {
  return sitemapPartOf(files)?.text ?? '';
}

/** The sitemaps' part of the run's message (docs/api.md, Run messages); `problems` stays English. */
export function sitemapPartOf(files: readonly SitemapFileRecord[] | undefined): TextedPart | undefined {
  if (files === undefined || files.length === 0) return undefined;
  let listed = 0;
  let added = 0;
  for (const file of files) {
    if (file.kind === 'index') continue;
    listed += file.listed;
    added += file.added;
  }
  const read = files.filter((file) => file.kind !== null).length;
  const problems = files.filter((file) => file.problem !== null);
  let message = `sitemaps: ${read} of ${files.length} file(s) read, ${listed} URL(s) listed, ${added} new to the crawl`;
  let named = '';
  if (problems.length > 0) {
    const more = problems.length > LISTED_PROBLEMS ? `; and ${problems.length - LISTED_PROBLEMS} more` : '';
    named = `${problems
      .slice(0, LISTED_PROBLEMS)
      .map((file) => `${shortened(file.url)}: ${file.problem}`)
      .join('; ')}${more}`;
    message += `; sitemap problems: ${named}`;
  }
  return {
    code: 'sitemaps',
    values: { read, files: files.length, listed, added, problems: named },
    text: message,
  };
}

function shortened(url: string): string {
  return url.length <= SHOWN_URL_CHARS ? url : `${url.slice(0, SHOWN_URL_CHARS)}…`;
}
