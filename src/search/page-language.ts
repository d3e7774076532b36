/**
 * The language a page declares (docs/reference/site-search.md, Pages with the same text): the
 * `lang` (or `xml:lang`) of its `html` element, else the `hreflang` of an alternate link that
 * names the page itself (`<link rel="alternate" hreflang="da" href="...this page...">`), as a
 * lowercase language tag.
 */

/** A language tag as BCP 47 writes one: letters, digits and hyphens, a primary subtag of letters. */
const LANGUAGE_TAG = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/;

/** Gathers the declarations of a page's elements as they are parsed, in document order. */
export class DeclaredLanguage {
  private htmlLang: string | undefined;
  private alternateLang: string | undefined;

  /** `pageUrl` tells an alternate link naming the page itself from one naming another version. */
  constructor(private readonly pageUrl: string | undefined) {}

  see(name: string, attributes: Record<string, string>): void {
    if (name === 'html' && this.htmlLang === undefined) {
      this.htmlLang = languageTagOf(attributes.lang ?? attributes['xml:lang']);
    }
    if (name === 'link' && this.alternateLang === undefined && this.pageUrl !== undefined) {
      const rels = (attributes.rel ?? '').toLowerCase().split(/\s+/);
      if (!rels.includes('alternate') || attributes.href === undefined) return;
      if (resolved(attributes.href, this.pageUrl) !== resolved(this.pageUrl, this.pageUrl)) return;
      this.alternateLang = languageTagOf(attributes.hreflang);
    }
  }

  /** The declared language, '' when the page declares none (or only `x-default`). */
  value(): string {
    return this.htmlLang ?? this.alternateLang ?? '';
  }
}

/** A declared value as a lowercase tag (`en_US` as `en-us`); undefined when it is none. */
export function languageTagOf(raw: string | undefined): string | undefined {
  const tag = (raw ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (tag === 'x-default' || !LANGUAGE_TAG.test(tag)) return undefined;
  return tag;
}

/** Kana and the CJK ideographs: script only Japanese of the languages a query is told by. */
const JAPANESE_SCRIPT = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

/**
 * The language of a query, as a primary subtag: `ja` for one written with Japanese script; ''
 * for any other, whose language the words of a short query do not tell (the site's most common
 * language stands for it: same-text-copies.ts).
 */
export function queryLanguageOf(query: string): string {
  return JAPANESE_SCRIPT.test(query) ? 'ja' : '';
}

/** The primary subtag of a language tag: `en` of `en-gb`. */
export function primaryLanguageOf(tag: string): string {
  const hyphen = tag.indexOf('-');
  return hyphen === -1 ? tag : tag.slice(0, hyphen);
}

function resolved(href: string, base: string): string | undefined {
  try {
    return withoutFragment(new URL(href, base).href);
  } catch {
    return undefined;
  }
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}
