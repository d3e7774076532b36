/**
 * Link entries: the entries of a page that only point at other pages (docs/reference/site-search.md,
 * Listing pages). A table of contents, a sitemap, a "see also" list or an archive's article
 * titles name the subjects of other pages; a back-of-the-book index pairs each term with links to
 * the pages that treat it. Their text says where to read about a subject, not that this page
 * treats it, so it is kept apart from the page's own text: not a heading, not the body, indexed in
 * the low-weight links field (docs/design/search-engine.md, Search engine).
 *
 * An entry is the innermost list item, definition term or description, or heading (h1-h6) around
 * a piece of text. An entry is a link entry when it holds a link to another page and has no
 * text of its own outside such links (digits, punctuation and symbols aside). On a listing page,
 * whose main text lies mostly in short entries holding such links, every short entry holding a
 * link is one (an index term beside its links, a command beside a one-line summary), and so is
 * every short list item without a link to a place on the page itself (an index term whose
 * sub-entries hold the links, a "see" reference).
 *
 * An article whose first heading only points at another page is a teaser of that page (an
 * archive's or a tag page's excerpt under the article's linked title) when the page holds two or
 * more of them: all its text is the link entry's.
 */
import { countOfKept, nonSpaceCount } from './text-pieces.js';

/** Entry elements: where one item of a list, or one heading, starts and ends. */
const ENTRY_ELEMENTS = new Set(['li', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const HEADING_ELEMENTS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Own text of a short entry, in characters (white space aside): a term, a one-line summary. */
export const SHORT_ENTRY_CHARS = 60;

/**
 * Share of a page's main text inside short entries holding links, from which the page is a
 * listing page. A chapter page with its table of contents and a few lines of introduction, a
 * back-of-the-book index or a command list lie above it; reference pages whose definition terms
 * link their types (a C API's signatures) lie below.
 */
export const LISTING_SHARE = 0.7;

/**
 * Short entries holding links a listing page has at least: a short page whose few lines are a
 * "see also" block of two or three links is no listing.
 */
export const LISTING_MIN_ENTRIES = 5;

/** What is not an entry's own words: only letters are, not numbering or punctuation. */
const NOT_OWN_WORD_CHARACTERS = /[^\p{L}\p{M}]+/gu;

interface EntryFacts {
  /** A list item, term or description, rather than a heading. */
  listItem: boolean;
  /** The entry holds a link to another page (directly, not in an inner entry). */
  linksOut: boolean;
  /** The entry holds a link to a place on this page: an entry of the page's own contents. */
  linksHere: boolean;
  /** Letters outside links to other pages. */
  ownLetters: number;
  /** Non-space characters outside links to other pages. */
  ownChars: number;
  /** Non-space characters inside links to other pages. */
  linkChars: number;
}

/**
 * Where `href` on the page at `pageUrl` points: at another page, at a place on this page (a
 * fragment, or the page's own URL), or at no page (mail, a script). Without `pageUrl` only a
 * bare fragment is known to be this page.
 */
export function linkTargetOf(href: string, pageUrl: string | undefined): 'elsewhere' | 'here' | 'none' {
  const target = href.trim();
  if (target === '' || target.startsWith('#')) return 'here';
  if (/^(?:mailto|tel|javascript|data):/i.test(target)) return 'none';
  if (pageUrl === undefined) return 'elsewhere';
  try {
    const page = new URL(pageUrl);
    const resolved = new URL(target, page);
    page.hash = '';
    resolved.hash = '';
    return resolved.href === page.href ? 'here' : 'elsewhere';
  } catch {
    return 'elsewhere';
  }
}

/** Follows entries and links as a page is parsed; `linkEntries` decides once the main text is known. */
export class LinkEntryTracker {
  private readonly entries: EntryFacts[] = [];
  /** Open entries, innermost last, by id. */
  private readonly openEntries: number[] = [];
  /** Every article element: the article around it, and its first heading entry once one opened. */
  private readonly articles: { parent?: number; firstHeading?: number }[] = [];
  /** Open article elements, innermost last, by id. */
  private readonly openArticles: number[] = [];
  /** Open `a` elements: whether each points elsewhere. */
  private readonly openLinks: boolean[] = [];
  private linksOutOpen = 0;

  constructor(private readonly pageUrl: string | undefined) {}

  /** An element opened. */
  open(name: string, attributes: Record<string, string>): void {
    if (name === 'article') {
      const parent = this.openArticles.at(-1);
      this.articles.push(parent === undefined ? {} : { parent });
      this.openArticles.push(this.articles.length - 1);
    }
    if (ENTRY_ELEMENTS.has(name)) {
      const listItem = !HEADING_ELEMENTS.has(name);
      this.entries.push({
        listItem,
        // A link around the entry (a card: a link holding a heading) points elsewhere from it too.
        linksOut: this.linksOutOpen > 0,
        linksHere: false,
        ownLetters: 0,
        ownChars: 0,
        linkChars: 0,
      });
      this.openEntries.push(this.entries.length - 1);
      const article = this.openArticles.at(-1);
      if (!listItem && article !== undefined)
        this.articles[article]!.firstHeading ??= this.entries.length - 1;
    }
    if (name === 'a') {
      const target = attributes.href === undefined ? 'none' : linkTargetOf(attributes.href, this.pageUrl);
      this.openLinks.push(target === 'elsewhere');
      if (target === 'elsewhere') this.linksOutOpen += 1;
      const entry = this.current();
      if (entry !== undefined && target === 'elsewhere') this.entries[entry]!.linksOut = true;
      if (entry !== undefined && target === 'here') this.entries[entry]!.linksHere = true;
    }
  }

  /** An element closed. */
  close(name: string): void {
    if (ENTRY_ELEMENTS.has(name)) this.openEntries.pop();
    if (name === 'article') this.openArticles.pop();
    if (name === 'a' && this.openLinks.pop() === true) this.linksOutOpen -= 1;
  }

  /** The innermost open entry, whose text a piece read now belongs to. */
  current(): number | undefined {
    return this.openEntries.at(-1);
  }

  /** The innermost open article, whose text a piece read now belongs to. */
  currentArticle(): number | undefined {
    return this.openArticles.at(-1);
  }

  /** Whether text read now is inside a link to another page. */
  inLink(): boolean {
    return this.linksOutOpen > 0;
  }

  /** Counts a piece of text of the main text in its entry. */
  count(entry: number, text: string, inLink: boolean): void {
    const facts = this.entries[entry]!;
    const chars = nonSpaceCount(text);
    if (inLink) facts.linkChars += chars;
    else {
      facts.ownChars += chars;
      facts.ownLetters += countOfKept(text, NOT_OWN_WORD_CHARACTERS);
    }
  }

  /**
   * The teaser articles, given the link entries: articles whose first heading only points
   * elsewhere, when the page holds two or more (an archive, a tag page), and the articles inside
   * them. One such article is the page's own post under a permalink written another way (a
   * trailing slash, a tracking parameter), not a teaser.
   */
  teasers(linkEntries: ReadonlySet<number>): Set<number> {
    const linkedTitle = this.articles.map(
      ({ firstHeading }) =>
        firstHeading !== undefined &&
        linkEntries.has(firstHeading) &&
        this.entries[firstHeading]!.ownLetters === 0,
    );
    const result = new Set<number>();
    if (linkedTitle.filter(Boolean).length < 2) return result;
    this.articles.forEach((article, id) => {
      // Articles open in document order: a parent's verdict is known before its children's.
      if (linkedTitle[id] || (article.parent !== undefined && result.has(article.parent))) result.add(id);
    });
    return result;
  }

  /**
   * The link entries, given the non-space characters of the page's main text (counted with
   * `count` for the pieces inside entries).
   */
  linkEntries(mainChars: number): Set<number> {
    let shortEntryChars = 0;
    let shortEntries = 0;
    for (const facts of this.entries) {
      // Entries of the template (navigation) hold no counted text and make no listing.
      if (!facts.linksOut || facts.ownChars > SHORT_ENTRY_CHARS || facts.ownChars + facts.linkChars === 0)
        continue;
      shortEntries += 1;
      shortEntryChars += facts.ownChars + facts.linkChars;
    }
    const listing =
      shortEntries >= LISTING_MIN_ENTRIES && mainChars > 0 && shortEntryChars / mainChars >= LISTING_SHARE;
    const result = new Set<number>();
    this.entries.forEach((facts, id) => {
      const short = facts.ownChars <= SHORT_ENTRY_CHARS;
      if (facts.linksOut && (facts.ownLetters === 0 || (listing && short))) result.add(id);
      // A listing's own short items are its structure: an index term whose sub-entries hold
      // the links, a "see" reference, a letter's group label; not an entry of the contents of
      // the page itself.
      else if (listing && short && facts.listItem && !facts.linksHere) result.add(id);
    });
    return result;
  }
}
