import { Parser } from 'htmlparser2';

/** The searchable text of an HTML page. */
export interface PageText {
  title: string;
  /** meta description, else the start of the body. */
  description: string;
  /**
   * Text of headings (h1-h6) and definition terms (dt), which name what a section is about;
   * documentation defines functions and options in dt elements.
   */
  headings: string;
  body: string;
  /** meta robots noindex: the page stays out of the index. */
  noindex: boolean;
}

/** Elements whose content is not text a reader sees. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);
/** Elements that end a line of text, so words on either side do not run together. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'tr',
  'td',
  'th',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'nav',
  'dt',
  'dd',
  'pre',
  'blockquote',
]);
const DESCRIPTION_FROM_BODY = 200;
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt']);

/** Title, description and visible body text of a page, whitespace collapsed. */
export function pageTextOf(html: string): PageText {
  let title = '';
  let description: string | undefined;
  let noindex = false;
  let inTitle = false;
  let hiddenDepth = 0;
  let headingDepth = 0;
  const body: string[] = [];
  const headings: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        if (name === 'meta') {
          const metaName = (attributes.name ?? '').toLowerCase();
          if (metaName === 'description') description = attributes.content ?? '';
          if (metaName === 'robots' && /\bnoindex\b/i.test(attributes.content ?? '')) noindex = true;
        }
        if (HIDDEN.has(name)) hiddenDepth += 1;
        if (HEADINGS.has(name)) headingDepth += 1;
        if (BLOCKS.has(name)) body.push('\n');
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (hiddenDepth === 0) {
          body.push(text);
          if (headingDepth > 0) headings.push(text);
        }
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (HEADINGS.has(name) && headingDepth > 0) {
          headingDepth -= 1;
          headings.push('\n');
        }
        if (HIDDEN.has(name)) hiddenDepth = Math.max(0, hiddenDepth - 1);
        if (BLOCKS.has(name)) body.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  const bodyText = collapse(body.join(''));
  return {
    title: collapse(title),
    description:
      description === undefined
        ? [...bodyText].slice(0, DESCRIPTION_FROM_BODY).join('')
        : collapse(description),
    headings: collapse(headings.join('')),
    body: bodyText,
    noindex,
  };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
