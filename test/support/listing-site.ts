/**
 * A coffee machine maker's help site with the listing pages such sites carry: a back-of-the-book
 * index in the DocBook style, a sitemap, a table of contents, a blog archive with excerpts and a
 * Japanese glossary (用語集), beside the manual, help, blog and Japanese pages they list. Every
 * page is framed by the same header, navigation and footer. The listing pages are built from the
 * content pages' data, so an entry always names a term its page really holds.
 */
import { createServer } from 'node:http';
import { listenLocally, type LocalServer } from './local-server.js';
import {
  SITE_NAME,
  LISTING_PATHS,
  LISTING_TITLES,
  MANUAL_PAGES,
  ARTICLES,
  JAPANESE_PAGES,
  CONTENT_PAGES,
  type ContentPage,
} from './listing-site-content.js';

export * from './listing-site-content.js';

const escape = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** A relative link from one page to another, as static site generators write them. */
function relative(from: string, to: string): string {
  const fromDirs = from.split('/').slice(1, -1);
  const toParts = to.split('/').slice(1);
  let common = 0;
  while (common < fromDirs.length && common < toParts.length - 1 && fromDirs[common] === toParts[common])
    common += 1;
  return [...fromDirs.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}

/** The site's frame: the same header, navigation and footer on every page. */
function framed(path: string, title: string, lang: string, main: string): string {
  const link = (to: string, text: string) => `<a href="${relative(path, to)}">${text}</a>`;
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escape(title)} | ${SITE_NAME}</title>
<link rel="stylesheet" href="/static/site.css"></head>
<body>
<header class="site-header">
<a class="brand" href="/">${SITE_NAME}</a>
<form class="search" action="/search"><input name="q" placeholder="Search the help"></form>
</header>
<nav class="site-nav"><ul>
<li>${link('/', 'Home')}</li>
<li>${link(LISTING_PATHS.contents, 'Manual')}</li>
<li>${link(LISTING_PATHS.index, 'Index')}</li>
<li>${link(LISTING_PATHS.archive, 'Blog')}</li>
<li>${link('/help/warranty.html', 'Warranty')}</li>
<li>${link(LISTING_PATHS.glossary, '用語集')}</li>
</ul></nav>
<main>
${main}
</main>
<footer class="site-footer">
<p>© 2026 Larkspur Coffee Works · ${link('/help/contact.html', 'Contact support')} · ${link(LISTING_PATHS.sitemap, 'Sitemap')}</p>
</footer>
</body></html>
`;
}

function contentHtml(page: ContentPage): string {
  const sections = page.sections
    .map(
      (section) =>
        `<section id="${section.id}"><h2>${escape(section.heading)}</h2>\n` +
        section.paragraphs.map((paragraph) => `<p>${escape(paragraph)}</p>`).join('\n') +
        '\n</section>',
    )
    .join('\n');
  return framed(
    page.path,
    page.title,
    page.lang,
    `<article><h1>${escape(page.title)}</h1>\n${sections}\n</article>`,
  );
}

function homeHtml(): string {
  return framed(
    '/',
    'Welcome',
    'en',
    `<h1>Help for your Larkspur Duo</h1>
<p>Answers for owners of the Larkspur Duo espresso machine and grinder, written by the people who
build and repair them.</p>
<ul class="start">
<li><a href="manual/index.html">Read the owner’s manual</a></li>
<li><a href="blog/archive.html">Notes from the roastery</a></li>
<li><a href="help/warranty.html">Register a repair</a></li>
<li><a href="ja/glossary.html">日本語のご案内</a></li>
</ul>`,
  );
}

/** Index entries sorted as a book index: by term, sub-entries under their heading term. */
function indexHtml(): string {
  const path = LISTING_PATHS.index;
  interface Entry {
    term: string;
    links: { href: string; title: string }[];
    subs: Map<string, { href: string; title: string }[]>;
  }
  const entries = new Map<string, Entry>();
  const entryOf = (term: string): Entry => {
    let entry = entries.get(term);
    if (entry === undefined) {
      entry = { term, links: [], subs: new Map() };
      entries.set(term, entry);
    }
    return entry;
  };
  for (const page of MANUAL_PAGES) {
    for (const listed of page.indexTerms ?? []) {
      const target = { href: `${relative(path, page.path)}#${listed.section}`, title: page.title };
      if (listed.under === undefined) entryOf(listed.term).links.push(target);
      else {
        const entry = entryOf(listed.under);
        entry.subs.set(listed.term, [...(entry.subs.get(listed.term) ?? []), target]);
      }
    }
  }
  const anchors = (links: { href: string; title: string }[]) =>
    links.map((link) => `<a class="indexterm" href="${link.href}">${escape(link.title)}</a>`).join(', ');
  const dt = (term: string, links: { href: string; title: string }[]) =>
    `<dt>${escape(term)}${links.length > 0 ? `, ${anchors(links)}` : ''}</dt>`;
  const byLetter = new Map<string, Entry[]>();
  for (const entry of [...entries.values()].sort((a, b) => a.term.localeCompare(b.term, 'en'))) {
    const letter = entry.term[0]!.toUpperCase();
    byLetter.set(letter, [...(byLetter.get(letter) ?? []), entry]);
  }
  const divisions = [...byLetter]
    .map(([letter, letterEntries]) => {
      const items = letterEntries.map((entry) => {
        const subs = [...entry.subs]
          .sort(([a], [b]) => a.localeCompare(b, 'en'))
          .map(([term, links]) => dt(term, links))
          .join('');
        return dt(entry.term, entry.links) + (subs === '' ? '' : `<dd><dl>${subs}</dl></dd>`);
      });
      return `<div class="indexdiv"><h3>${letter}</h3><dl>\n${items.join('\n')}\n</dl></div>`;
    })
    .join('\n');
  return framed(
    path,
    LISTING_TITLES.index,
    'en',
    `<div class="index"><h1 class="title">${LISTING_TITLES.index}</h1>\n${divisions}\n</div>`,
  );
}

/** The manual's table of contents in the DocBook style: chapters and their sections. */
function contentsHtml(): string {
  const path = LISTING_PATHS.contents;
  const manual = MANUAL_PAGES.filter((page) => page.path.startsWith('/manual/'));
  const appendices = MANUAL_PAGES.filter((page) => page.path.startsWith('/help/'));
  // Chapters are numbered, the help appendices lettered, as DocBook labels them.
  const labelled = [
    ...manual.map((page, number) => ({ page, label: `${number + 1}. ${page.title}` })),
    ...appendices.map((page, number) => ({
      page,
      label: `${String.fromCharCode(65 + number)}. ${page.title}`,
    })),
  ];
  const chapters = labelled.map(({ page, label }) => {
    const sections = page.sections
      .map(
        (section) =>
          `<dt><span class="sect1"><a href="${relative(path, page.path)}#${section.id}">` +
          `${escape(section.heading)}</a></span></dt>`,
      )
      .join('');
    return (
      `<dt><span class="chapter"><a href="${relative(path, page.path)}">${escape(label)}</a></span></dt>` +
      `<dd><dl>${sections}</dl></dd>`
    );
  });
  return framed(
    path,
    LISTING_TITLES.contents,
    'en',
    `<div class="toc"><h1>${LISTING_TITLES.contents}</h1>\n<dl class="toc">\n${chapters.join('\n')}\n</dl></div>`,
  );
}

/** Every page by its title, grouped by part of the site. */
function sitemapHtml(): string {
  const path = LISTING_PATHS.sitemap;
  const list = (pages: readonly ContentPage[]) =>
    pages
      .map((page) => `<li><a href="${relative(path, page.path)}">${escape(page.title)}</a></li>`)
      .join('\n');
  return framed(
    path,
    LISTING_TITLES.sitemap,
    'en',
    `<h1>${LISTING_TITLES.sitemap}</h1>
<ul class="sitemap">
<li><a href="/">Home</a></li>
<li><a href="${relative(path, LISTING_PATHS.contents)}">Owner’s manual</a><ul>
${list(MANUAL_PAGES.filter((page) => page.path.startsWith('/manual/')))}
<li><a href="${relative(path, LISTING_PATHS.index)}">Index</a></li>
</ul></li>
<li>Help<ul>
${list(MANUAL_PAGES.filter((page) => page.path.startsWith('/help/')))}
</ul></li>
<li><a href="${relative(path, LISTING_PATHS.archive)}">Blog</a><ul>
${list(ARTICLES)}
</ul></li>
<li><a href="${relative(path, LISTING_PATHS.glossary)}">日本語</a><ul>
${list(JAPANESE_PAGES)}
</ul></li>
</ul>`,
  );
}

/** The blog archive: per article its title, its first paragraph verbatim, and "Read more". */
function archiveHtml(): string {
  const path = LISTING_PATHS.archive;
  const articles = ARTICLES.map((article) => {
    const href = relative(path, article.path);
    return (
      `<article class="excerpt"><h2><a href="${href}">${escape(article.title)}</a></h2>\n` +
      `<p>${escape(article.sections[0]!.paragraphs[0]!)}</p>\n<a class="more" href="${href}">Read more</a></article>`
    );
  });
  return framed(
    path,
    LISTING_TITLES.archive,
    'en',
    `<h1>${LISTING_TITLES.archive}</h1>\n${articles.join('\n')}`,
  );
}

/** The Japanese glossary: term, short definition, link to the page explaining it. */
function glossaryHtml(): string {
  const path = LISTING_PATHS.glossary;
  const items = JAPANESE_PAGES.flatMap((page) =>
    (page.glossary ?? []).map(
      (entry) =>
        `<dt>${escape(entry.term)}</dt>` +
        `<dd>${escape(entry.definition)} <a href="${relative(path, page.path)}#${entry.section}">` +
        `${escape(page.title)}</a></dd>`,
    ),
  );
  return framed(
    path,
    LISTING_TITLES.glossary,
    'ja',
    `<h1>${LISTING_TITLES.glossary}</h1>\n<dl class="glossary">\n${items.join('\n')}\n</dl>`,
  );
}

/** Every page of the site by path. */
export function listingSitePages(): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set('/', homeHtml());
  for (const page of CONTENT_PAGES) pages.set(page.path, contentHtml(page));
  pages.set(LISTING_PATHS.index, indexHtml());
  pages.set(LISTING_PATHS.contents, contentsHtml());
  pages.set(LISTING_PATHS.sitemap, sitemapHtml());
  pages.set(LISTING_PATHS.archive, archiveHtml());
  pages.set(LISTING_PATHS.glossary, glossaryHtml());
  return pages;
}

/** Serves the site on 127.0.0.1; any other path (robots.txt, the stylesheet) is a 404. */
export async function startListingSite(): Promise<LocalServer> {
  const pages = listingSitePages();
  const server = createServer((request, response) => {
    const body = pages.get(new URL(request.url ?? '/', 'http://site').pathname);
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return listenLocally(server);
}
