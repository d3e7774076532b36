import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageTextOf } from '../../src/search/indexing.js';
import type { Doctype } from '../../src/search/index.js';

/** A page as both systems index it: the fields the project's extraction gives. */
export interface EvalDocument {
  url: string;
  title: string;
  description: string;
  body: string;
  headings?: string;
  /** Template text by markup (nav, header, footer, aside), as a crawl stores it. */
  template?: string;
  /** Absent: html. */
  doctype?: Doctype;
}

const PROGRESS_EVERY = 100;

/** Paths of the HTML files under `root`, relative and '/'-separated, sorted so runs are repeatable. */
export function htmlFilesUnder(root: string): string[] {
  const files: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      // Sphinx keeps sources, images and assets in _-prefixed folders: no pages there.
      if (entry.isDirectory() && !entry.name.startsWith('_')) walk(child);
      else if (entry.isFile() && entry.name.endsWith('.html')) files.push(child);
    }
  };
  walk('');
  return files.sort();
}

/**
 * The URLs (`baseUrl` + path) of the pages under `root` that `isContent` accepts and that do not
 * ask to stay out of an index (meta robots noindex): the pages judgments are made among.
 */
export function contentPageUrls(
  root: string,
  baseUrl: string,
  isContent: (relativePath: string) => boolean,
): Set<string> {
  const urls = new Set<string>();
  for (const file of htmlFilesUnder(root).filter(isContent)) {
    const html = readFileSync(path.join(root, file), 'utf8');
    // Only a page naming noindex can be one; the others need no extraction.
    if (/noindex/i.test(html) && pageTextOf(html).noindex) continue;
    urls.add(new URL(file, baseUrl).href);
  }
  return urls;
}

/**
 * Reads every page under `root` that `isContent` accepts and extracts it with the project's own
 * pageTextOf, as a crawl would; `baseUrl` + the relative path is the document's URL. `onPage`
 * sees the raw HTML of each page kept.
 */
export function loadPages(
  root: string,
  baseUrl: string,
  isContent: (relativePath: string) => boolean,
  onPage?: (url: string, html: string) => void,
): EvalDocument[] {
  const files = htmlFilesUnder(root).filter(isContent);
  const documents: EvalDocument[] = [];
  for (const file of files) {
    const html = readFileSync(path.join(root, file), 'utf8');
    const url = new URL(file, baseUrl).href;
    const text = pageTextOf(html, {}, url);
    if (text.noindex) continue;
    onPage?.(url, html);
    const document: EvalDocument = {
      url,
      title: text.title,
      description: text.description,
      headings: text.headings,
      body: text.body,
      template: text.template,
    };
    documents.push(document);
    if (documents.length % PROGRESS_EVERY === 0) {
      process.stderr.write(`  ${documents.length}/${files.length} pages loaded\n`);
    }
  }
  process.stderr.write(`  ${documents.length} pages loaded\n`);
  return documents;
}
