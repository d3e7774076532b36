import { Parser } from 'htmlparser2';

/** One link found on a page, before it is resolved against the page URL. */
export interface RawLink {
  href: string;
  text: string;
  rel: string;
  /** rel=nofollow: not followed when robots rules are obeyed. */
  nofollow: boolean;
}

export interface ExtractedPage {
  title: string;
  /** `<base href>` when the page declares one. */
  baseHref: string | undefined;
  links: RawLink[];
  /** meta robots directives of the page (lower-case tokens such as `noindex`, `nofollow`). */
  robotsDirectives: Set<string>;
  /** The first `<link rel="canonical" href>`, as written. */
  canonicalHref: string | undefined;
}

/** `link` elements whose target is another document of the site rather than a sub-resource. */
const DOCUMENT_LINK_RELS = new Set(['alternate', 'next', 'prev']);
const MAX_ANCHOR_TEXT = 500;

/**
 * Extracts what the crawler needs from HTML in one streaming pass: links of `a`, `area`, `frame`,
 * `iframe` and `link rel=alternate|next|prev` (docs/reference/crawl-rules.md, Links), the title,
 * the `<base href>` and meta robots.
 */
export function extractPage(html: string): ExtractedPage {
  const page: ExtractedPage = {
    title: '',
    baseHref: undefined,
    links: [],
    robotsDirectives: new Set(),
    canonicalHref: undefined,
  };
  let inTitle = false;
  let titleDone = false;
  let openAnchor: RawLink | undefined;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        switch (name) {
          case 'a':
          case 'area': {
            const href = attributes.href;
            if (href === undefined) return;
            const link = makeLink(href, attributes.rel);
            page.links.push(link);
            if (name === 'a') openAnchor = link;
            return;
          }
          case 'frame':
          case 'iframe':
            if (attributes.src !== undefined) page.links.push(makeLink(attributes.src, undefined));
            return;
          case 'link': {
            const rel = (attributes.rel ?? '').toLowerCase();
            if (attributes.href === undefined) return;
            const tokens = rel.split(/\s+/);
            if (tokens.some((token) => DOCUMENT_LINK_RELS.has(token)))
              page.links.push(makeLink(attributes.href, rel));
            if (page.canonicalHref === undefined && tokens.includes('canonical'))
              page.canonicalHref = attributes.href.trim();
            return;
          }
          case 'base':
            if (page.baseHref === undefined && attributes.href !== undefined) page.baseHref = attributes.href;
            return;
          case 'meta': {
            const metaName = (attributes.name ?? '').toLowerCase();
            if ((metaName === 'robots' || metaName === 'kumobot') && attributes.content) {
              for (const token of parseRobotsDirectives(attributes.content)) page.robotsDirectives.add(token);
            }
            return;
          }
          case 'title':
            if (!titleDone) inTitle = true;
            return;
        }
      },
      ontext(text) {
        if (inTitle) page.title += text;
        if (openAnchor && openAnchor.text.length < MAX_ANCHOR_TEXT) openAnchor.text += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        } else if (name === 'a') {
          openAnchor = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  page.title = collapseWhitespace(page.title);
  for (const link of page.links) link.text = collapseWhitespace(link.text).slice(0, MAX_ANCHOR_TEXT);
  return page;
}

function makeLink(href: string, rel: string | undefined): RawLink {
  const relValue = (rel ?? '').trim().toLowerCase();
  return { href: href.trim(), text: '', rel: relValue, nofollow: /(^|\s)nofollow(\s|$)/.test(relValue) };
}

/** Splits `noindex, nofollow` (meta robots or X-Robots-Tag) into lower-case tokens; `none` means both. */
export function parseRobotsDirectives(value: string): string[] {
  const tokens: string[] = [];
  for (const raw of value.toLowerCase().split(',')) {
    // X-Robots-Tag may carry a user-agent prefix ("googlebot: noindex"); keep only the directive.
    const token = raw.slice(raw.lastIndexOf(':') + 1).trim();
    if (token === 'none') tokens.push('noindex', 'nofollow');
    else if (token !== '') tokens.push(token);
  }
  return tokens;
}

function collapseWhitespace(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}
