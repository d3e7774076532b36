import { DomUtils } from 'htmlparser2';

export type HtmlElement = ReturnType<typeof DomUtils.findAll>[number];

/** One entry of a book's index as its authors wrote it: the term and the pages it points to. */
export interface IndexEntry {
  term: string;
  /** Absolute page URLs, without #fragments, in index order. */
  pages: string[];
}

export function hasClass(element: HtmlElement, name: string): boolean {
  return (DomUtils.getAttributeValue(element, 'class') ?? '').split(/\s+/).includes(name);
}

/** The child elements of `parent` named `name`, in order. */
export function childElements(parent: HtmlElement, name: string): HtmlElement[] {
  return parent.children.filter(
    (child): child is HtmlElement => DomUtils.isTag(child) && child.name === name,
  );
}

/** The text of `parent`'s children before the first child element named one of `stopAt`. */
export function leadingText(parent: HtmlElement, stopAt: ReadonlySet<string>): string {
  const parts: string[] = [];
  for (const child of parent.children) {
    if (DomUtils.isTag(child) && stopAt.has(child.name)) break;
    parts.push(DomUtils.textContent(child));
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/**
 * Pages the links inside `elements` point to, resolved against the index page's URL, fragments
 * dropped (a judgment is about a page), duplicates and links within the index page left out.
 */
export function linkedPages(elements: readonly HtmlElement[], indexPageUrl: string): string[] {
  const pages = new Set<string>();
  for (const link of DomUtils.findAll((element) => element.name === 'a', [...elements])) {
    const href = DomUtils.getAttributeValue(link, 'href');
    if (href === undefined || href.startsWith('#')) continue;
    const url = new URL(href, indexPageUrl);
    url.hash = '';
    if (url.href !== indexPageUrl) pages.add(url.href);
  }
  return [...pages];
}
