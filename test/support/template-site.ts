/**
 * Documentation sites shaped like real ones, every page framed by the same template: an
 * English reference whose pages carry a "Prev Up Home Next" navigation table, a breadcrumb and a
 * footer in plain div elements; a Japanese manual (with its English twin on the same host) whose
 * pages start with the menu "モジュール | ディレクティブ | FAQ | 用語 | サイトマップ"; and a site
 * using the HTML landmarks nav, header, footer and aside.
 */
import type { BundlePage } from './crawl-bundle.js';

export const REFERENCE_HOST = 'https://docs.reference.example';
export const MANUAL_HOST = 'https://httpd.manual.example';
export const LANDMARK_HOST = 'https://guide.landmark.example';

/** The Japanese manual's menu line, as a reader sees it at the top of every page. */
export const JAPANESE_MENU = 'モジュール | ディレクティブ | FAQ | 用語 | サイトマップ';

export interface ReferencePage {
  slug: string;
  title: string;
  text: string;
}

/** A reference page: navigation table, breadcrumb, the entry, navigation footer, copyright. */
export function referenceHtml(page: ReferencePage): string {
  return `<!DOCTYPE html><html><head><title>${page.title}</title></head><body>
<div class="navheader"><table width="100%"><tr><th colspan="5" align="center">${page.title}</th></tr>
<tr><td><a accesskey="p" href="prev.html">Prev</a></td><td><a accesskey="u" href="sql-commands.html">Up</a></td>
<th>SQL Commands</th><td><a accesskey="h" href="index.html">Home</a></td><td><a accesskey="n" href="next.html">Next</a></td></tr>
</table><hr></div>
<div class="breadcrumb">Reference Manual &gt; Part VI. Reference &gt; SQL Commands</div>
<div class="refentry"><h1>${page.title}</h1><p>${page.text}</p></div>
<div class="navfooter"><hr><table width="100%"><tr><td><a href="prev.html">Prev</a></td><td><a href="sql-commands.html">Up</a></td><td><a href="next.html">Next</a></td></tr></table></div>
<div class="copyright">Copyright © 1996–2026 The Reference Manual Group. Fonts: Hack, Inter.</div>
</body></html>`;
}

export const REFERENCE_PAGES: readonly ReferencePage[] = [
  {
    slug: 'create-index',
    title: 'CREATE INDEX',
    text: 'CREATE INDEX constructs an index on the specified column of a relation. Indexes speed up retrieval.',
  },
  {
    slug: 'create-table',
    title: 'CREATE TABLE',
    text: 'CREATE TABLE defines a new table with columns, constraints and a storage layout.',
  },
  {
    slug: 'drop-index',
    title: 'DROP INDEX',
    text: 'DROP INDEX removes an existing index from the database system.',
  },
  {
    slug: 'alter-table',
    title: 'ALTER TABLE',
    text: 'ALTER TABLE changes the definition of an existing table, its columns and constraints.',
  },
  {
    slug: 'vacuum',
    title: 'VACUUM',
    text: 'VACUUM reclaims storage occupied by dead tuples and updates planner statistics.',
  },
  {
    slug: 'analyze',
    title: 'ANALYZE',
    text: 'ANALYZE collects statistics about the contents of tables for the query planner.',
  },
  {
    slug: 'create-trigger',
    title: 'CREATE TRIGGER',
    text: 'CREATE TRIGGER installs a trigger function that fires on table events.',
  },
  {
    slug: 'reindex',
    title: 'REINDEX',
    text: 'REINDEX rebuilds an index using the data stored in its table.',
  },
];

export const referenceBundle = (pages: readonly ReferencePage[] = REFERENCE_PAGES): BundlePage[] =>
  pages.map((page) => ({
    url: `${REFERENCE_HOST}/sql-${page.slug}.html`,
    status: 200,
    html: referenceHtml(page),
  }));

/** A page of the Japanese manual (or, `english`, of its English twin on the same host). */
export function manualHtml(title: string, text: string, english = false): string {
  const menu = english ? 'Modules | Directives | FAQ | Glossary | Sitemap' : JAPANESE_MENU;
  const server = english ? 'Apache HTTP Server Version 2.4' : 'Apache HTTP サーバ バージョン 2.4';
  const path = english
    ? 'Apache &gt; HTTP Server &gt; Documentation &gt; Version 2.4'
    : 'Apache &gt; HTTP サーバ &gt; ドキュメンテーション &gt; バージョン 2.4';
  return `<!DOCTYPE html><html><head><title>${title} - ${english ? 'Apache HTTP Server' : 'Apache HTTP サーバ'}</title></head><body>
<div id="page-header"><p class="menu"><a href="mod/">${menu.split(' | ').join('</a> | <a href="#">')}</a></p>
<p class="apache">${server}</p><img alt="" src="images/feather.png"></div>
<div id="path"><a href="/">${path}</a></div>
<div id="page-content"><div id="preamble"><h1>${title}</h1><p>${text}</p></div></div>
<div id="footer"><p class="apache">Copyright 2026 The Apache Software Foundation.</p>
<p class="menu">${menu}</p></div>
</body></html>`;
}

const MANUAL_PAGES: readonly { slug: string; title: string; text: string; english: string }[] = [
  {
    slug: 'howto/auth',
    title: '認証と承認',
    text: '認証はユーザが誰であるかを確かめる処理です。パスワードファイルでユーザを認証します。',
    english: 'Authentication checks who a user is, against a password file.',
  },
  {
    slug: 'mod/mod_auth_basic',
    title: 'mod_auth_basic',
    text: 'ベーシック認証を提供します。認証プロバイダでパスワードを確かめます。',
    english: 'Basic authentication with an authentication provider.',
  },
  {
    slug: 'mod/mod_authn_file',
    title: 'mod_authn_file',
    text: 'テキストファイルによるユーザ認証を提供します。パスワードファイルを使います。',
    english: 'User authentication using text files of passwords.',
  },
  {
    slug: 'vhosts/index',
    title: 'バーチャルホスト',
    text: '一つのサーバで複数のサイトを提供するバーチャルホストの説明です。',
    english: 'Virtual hosts serve several sites from one server.',
  },
  {
    slug: 'logs',
    title: 'ログファイル',
    text: 'アクセスログとエラーログの書式と回転について説明します。',
    english: 'Access and error logs, their formats and rotation.',
  },
  {
    slug: 'caching',
    title: 'キャッシュ',
    text: 'キャッシュによって応答を速くする方法を説明します。',
    english: 'Caching makes answers faster.',
  },
];

/** The manual in Japanese and English, one host: the Japanese menu is on half of its pages. */
export function manualBundle(): BundlePage[] {
  return MANUAL_PAGES.flatMap((page) => [
    { url: `${MANUAL_HOST}/ja/${page.slug}.html`, status: 200, html: manualHtml(page.title, page.text) },
    {
      url: `${MANUAL_HOST}/en/${page.slug}.html`,
      status: 200,
      html: manualHtml(page.title, page.english, true),
    },
  ]);
}

/** A page framed by landmarks: a site header with nav, a sidebar, the article, a footer. */
export function landmarkHtml(title: string, text: string): string {
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header><a href="/">Guide Home</a><nav><a href="/prev">Prev</a> <a href="/up">Up</a> <a href="/">Home</a> <a href="/next">Next</a></nav></header>
<div role="navigation" class="breadcrumbs">Guide › Chapters › ${title}</div>
<aside><h3>On this page</h3><ul><li>Overview</li><li>Related topics</li></ul></aside>
<article><header><h1>${title}</h1></header><p>${text}</p><footer>Last reviewed in spring</footer></article>
<footer>Copyright Landmark Guides. Privacy policy. Contact.</footer>
</body></html>`;
}

export function landmarkBundle(): BundlePage[] {
  return [
    [
      'install',
      'Installing the tool',
      'Download the archive, unpack it and run the installer as an administrator.',
    ],
    [
      'configure',
      'Configuring the tool',
      'The configuration file lists the sources to watch and the schedule.',
    ],
    [
      'upgrade',
      'Upgrading the tool',
      'Stop the service, install the new archive, then start the service again.',
    ],
  ].map(([slug, title, text]) => ({
    url: `${LANDMARK_HOST}/${slug}.html`,
    status: 200,
    html: landmarkHtml(title!, text!),
  }));
}
