import type { Fts5Tokenizer } from './fts5-baseline.js';
import type { IndexEntry } from './index-entry.js';
import type { JudgmentOptions } from './judgments.js';

/**
 * Where a set lives on the web site its package's folder is served as (docs/search-evaluation.md,
 * Relevance evaluation): the folder served, and the path of the set's folder on that site, which is
 * where a site owner's crawl starts and, below the site's root, stays.
 */
export interface SiteLayout {
  /** The folder served as the site, relative to the set's folder: `.`, or `..` for a part of it. */
  servedFolder: string;
  /** The set's folder on the site, starting and ending with `/`: `/`, `/ja/`. */
  path: string;
}

/** A documentation site installed by a Debian package, with the human-made index that judges it. */
export interface CorpusSpec {
  /** Short name for `--sets` and in figure files (`python`). */
  key: string;
  label: string;
  /** Debian package holding the HTML, and a file that marks its folder. */
  debianPackage: string;
  marker: string;
  /** Documents get `baseUrl` + their path in the folder as URL. */
  baseUrl: string;
  site: SiteLayout;
  /**
   * Listing pages (relative paths): those that only list, index or search the others (indexes,
   * tables of contents, search pages, lists of modules or directives, glossaries, sitemaps). They
   * are crawled and searched like any page, but never relevant; the other pages are the content
   * pages, among which the judgments are made.
   */
  isListing: (relativePath: string) => boolean;
  /** The index pages (relative paths) the judgments come from. */
  indexFiles: (root: string) => string[];
  parseIndex: (html: string, indexPageUrl: string) => IndexEntry[];
  judgmentOptions: JudgmentOptions;
  /** How a query and its relevant pages are made, printed with the figures. */
  judgmentNote: string;
  baselines: readonly Fts5Tokenizer[];
}

/** The set's folder served as the whole site: the layout of every set but a translation. */
export const WHOLE_SITE: SiteLayout = { servedFolder: '.', path: '/' };
