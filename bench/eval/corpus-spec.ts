import type { Fts5Tokenizer } from './fts5-baseline.js';
import type { IndexEntry } from './index-entry.js';
import type { JudgmentOptions } from './judgments.js';

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
  /** False for index, search and navigation pages, which are not documents. */
  isContent: (relativePath: string) => boolean;
  /** The index pages (relative paths) the judgments come from. */
  indexFiles: (root: string) => string[];
  parseIndex: (html: string, indexPageUrl: string) => IndexEntry[];
  judgmentOptions: JudgmentOptions;
  /** How a query and its relevant pages are made, printed with the figures. */
  judgmentNote: string;
  baselines: readonly Fts5Tokenizer[];
}
