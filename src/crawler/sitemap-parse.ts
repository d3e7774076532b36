/**
 * Reading one sitemap file (docs/reference/crawl-rules.md, Sitemaps): an XML `urlset` or
 * `sitemapindex` of the sitemaps protocol, or a text sitemap (one URL per line). The protocol's
 * limit of 50,000 entries per file is enforced here; the 50 MB limit is the reader's, before the
 * text exists.
 */
import { Parser } from 'htmlparser2';

/** The sitemaps protocol: a file lists at most 50,000 URLs (or child sitemaps). */
export const MAX_SITEMAP_ENTRIES = 50_000;
/** A `loc` longer than this is no real page's URL (the protocol asks for under 2,048 characters). */
const MAX_LOC_CHARS = 8192;

export interface SitemapEntry {
  /** Absolute http(s) URL as the file wrote it, trimmed. */
  loc: string;
  /** W3C datetime as written (`2026-11-20`, `2026-11-20T10:00:00+09:00`); null when absent or malformed. */
  lastmod: string | null;
}

export interface ParsedSitemap {
  /** `index` lists child sitemaps; `urlset` and `text` list pages. */
  kind: 'urlset' | 'index' | 'text';
  entries: SitemapEntry[];
  /** Entries past MAX_SITEMAP_ENTRIES, not taken. */
  overLimit: number;
  /** Entries whose `loc` is missing or not an absolute http(s) URL. */
  invalid: number;
}

/** The file is no sitemap at all (an HTML page, an RSS feed, binary data); the reason says what it is. */
export class NotASitemapError extends Error {}

const W3C_DATETIME =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** Parses a sitemap's text; throws NotASitemapError when it is not one. */
export function parseSitemap(text: string): ParsedSitemap {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return parseXmlSitemap(start);
  return parseTextSitemap(start);
}

function parseXmlSitemap(text: string): ParsedSitemap {
  const result: ParsedSitemap = { kind: 'urlset', entries: [], overLimit: 0, invalid: 0 };
  let root: string | undefined;
  /** Inside a `url` or `sitemap` element: its loc and lastmod so far. */
  let item: { loc: string | undefined; lastmod: string | undefined } | undefined;
  /** The text of the `loc` or `lastmod` being read. */
  let field: { name: 'loc' | 'lastmod'; text: string } | undefined;
  const itemName = () => (result.kind === 'index' ? 'sitemap' : 'url');
  const parser = new Parser(
    {
      onopentag(rawName) {
        const name = localName(rawName);
        if (root === undefined) {
          root = name;
          if (name === 'sitemapindex') result.kind = 'index';
          else if (name !== 'urlset') {
            parser.pause();
            return;
          }
          return;
        }
        if (name === itemName()) item = { loc: undefined, lastmod: undefined };
        else if (item !== undefined && (name === 'loc' || name === 'lastmod')) field = { name, text: '' };
      },
      ontext(data) {
        if (field !== undefined && field.text.length <= MAX_LOC_CHARS) field.text += data;
      },
      onclosetag(rawName) {
        const name = localName(rawName);
        if (field !== undefined && name === field.name) {
          if (item !== undefined) item[field.name] = field.text.trim();
          field = undefined;
        } else if (item !== undefined && name === itemName()) {
          take(result, item.loc, item.lastmod);
          item = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(text);
  if (root !== 'urlset' && root !== 'sitemapindex') {
    throw new NotASitemapError(
      root === undefined ? 'no XML element' : `root element <${root}>, not <urlset> or <sitemapindex>`,
    );
  }
  return result;
}

function parseTextSitemap(text: string): ParsedSitemap {
  const result: ParsedSitemap = { kind: 'text', entries: [], overLimit: 0, invalid: 0 };
  for (const line of text.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '') take(result, trimmed, undefined);
  }
  // A file none of whose lines is a URL is something else (a binary file, a page with no markup).
  if (result.entries.length === 0 && result.overLimit === 0 && result.invalid > 0) {
    throw new NotASitemapError('neither XML nor a list of URLs');
  }
  return result;
}

function take(result: ParsedSitemap, loc: string | undefined, lastmod: string | undefined): void {
  if (loc === undefined || loc.length > MAX_LOC_CHARS || !isHttpUrl(loc)) {
    result.invalid += 1;
    return;
  }
  if (result.entries.length >= MAX_SITEMAP_ENTRIES) {
    result.overLimit += 1;
    return;
  }
  result.entries.push({
    loc,
    lastmod: lastmod !== undefined && W3C_DATETIME.test(lastmod) ? lastmod : null,
  });
}

function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  return URL.canParse(text);
}

/** `sm:loc` and `loc` alike: sitemaps written with a namespace prefix are still sitemaps. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}
