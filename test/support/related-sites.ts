/**
 * Sites shaped like real documentation for related keywords: a database manual whose long JSON
 * pages and release notes speak of `jsonb` among pages about other things, every page framed by
 * a DocBook navigation; and a Japanese server manual whose pages carry the menu, version line and
 * breadcrumb of its site around pages on authentication, logs, caching and virtual hosts.
 */
import { pageTextOf } from '../../src/search/indexing.js';
import type { BundlePage } from './crawl-bundle.js';
import { manualHtml, MANUAL_HOST, REFERENCE_HOST, referenceHtml } from './template-site.js';

/** Characters of a body the former related keywords read (the cut that split "from"). */
export const FORMER_SAMPLE_CHARS = 5000;

const JSONB_SENTENCES = [
  'The jsonb type stores a decomposed binary form of the input, read from the text once.',
  'Containment tests whether one jsonb document is contained within another one.',
  'A jsonpath expression selects items from a jsonb value, and json keeps the text as written.',
  'The jsonb operators test containment and existence of keys in a jsonb document.',
];

/**
 * A long page of JSON text whose body, as extracted, has "from" across the character
 * FORMER_SAMPLE_CHARS: a reader of the first FORMER_SAMPLE_CHARS characters sees "fro".
 */
function longJsonPage(slug: string, title: string): BundlePage {
  const filler = Array.from({ length: 90 }, (_, n) => JSONB_SENTENCES[n % JSONB_SENTENCES.length]).join(' ');
  for (let pad = 0; pad < 400; pad += 1) {
    const html = referenceHtml({ slug, title, text: `${'-'.repeat(pad)} ${filler}` });
    const body = pageTextOf(html).body;
    if (body.slice(FORMER_SAMPLE_CHARS - 3, FORMER_SAMPLE_CHARS + 1) === 'from') {
      return { url: `${REFERENCE_HOST}/${slug}.html`, status: 200, html };
    }
  }
  throw new Error(`no padding puts "from" across the sample's end on ${slug}`);
}

const TOPICS = [
  [
    'sql-createtable',
    'CREATE TABLE',
    'CREATE TABLE defines a new table with columns and constraints from a list.',
  ],
  [
    'sql-createindex',
    'CREATE INDEX',
    'CREATE INDEX builds an index on columns of a table for faster lookups.',
  ],
  ['sql-vacuum', 'VACUUM', 'VACUUM reclaims storage held by dead tuples and freezes old transaction ids.'],
  ['sql-analyze', 'ANALYZE', 'ANALYZE collects statistics about the contents of tables for the planner.'],
  ['datatype-numeric', 'Numeric Types', 'Numeric types hold integers, decimals and floating point numbers.'],
  ['datatype-datetime', 'Date/Time Types', 'Timestamps, dates and intervals with time zones and precision.'],
  ['datatype-textsearch', 'Text Search Types', 'The tsvector and tsquery types hold documents and queries.'],
  ['functions-string', 'String Functions', 'Functions that concatenate, trim, split and format strings.'],
  ['functions-math', 'Mathematical Functions', 'Functions for rounding, logarithms and trigonometry.'],
  [
    'runtime-config-wal',
    'Write Ahead Log',
    'Settings of the write-ahead log: its level, buffers and checkpoints.',
  ],
  ['backup-dump', 'SQL Dump', 'pg_dump writes a database out as a script of SQL commands.'],
  [
    'logical-replication',
    'Logical Replication',
    'Publications and subscriptions copy changes between servers.',
  ],
  [
    'ddl-constraints',
    'Constraints',
    'Check constraints, not-null constraints, unique keys and foreign keys.',
  ],
  ['indexes-types', 'Index Types', 'B-tree, hash, GiST, SP-GiST, GIN and BRIN index methods.'],
  ['sql-select', 'SELECT', 'SELECT retrieves rows from tables and views, with joins and grouping.'],
  ['plpgsql', 'PL/pgSQL', 'A procedural language with variables, loops and exceptions.'],
] as const;

/** Release notes that name jsonb once among fixes of other things, with their authors. */
function releaseNote(version: number): BundlePage {
  const text =
    `Fix planner estimates for partitioned tables (Tom Lane). Repair vacuum of large relations ` +
    `(Michael Paquier). Fix a crash when casting a jsonb null to a record (Tom Lane). ` +
    `Improve error messages of the replication launcher (Michael Paquier).`;
  return {
    url: `${REFERENCE_HOST}/release-15-${version}.html`,
    status: 200,
    html: referenceHtml({ slug: `release-15-${version}`, title: `Release 15.${version}`, text }),
  };
}

/** The database manual: two long JSON pages, a jsonb function page, release notes, other topics. */
export function databaseManual(): BundlePage[] {
  const functions = referenceHtml({
    slug: 'functions-json',
    title: 'JSON Functions and Operators',
    text:
      'The jsonb_set and jsonb_path_query functions take a jsonpath argument. ' +
      'Containment operators of jsonb compare a jsonb document with another; json values are text.',
  });
  return [
    longJsonPage('datatype-json', 'JSON Types'),
    longJsonPage('datatype-json-indexing', 'jsonb Indexing'),
    { url: `${REFERENCE_HOST}/functions-json.html`, status: 200, html: functions },
    ...[1, 2, 3, 4, 5, 6].map(releaseNote),
    ...TOPICS.map(([slug, title, text]) => ({
      url: `${REFERENCE_HOST}/${slug}.html`,
      status: 200,
      html: referenceHtml({ slug, title, text }),
    })),
  ];
}

const SERVER_PAGES: readonly (readonly [string, string, string])[] = [
  [
    'howto/auth',
    '認証、承認、アクセス制御',
    '認証はユーザが誰であるかを確かめる処理です。承認は誰が何にアクセスできるかを決めます。' +
      'アクセス制御はパスワードで認証したユーザに承認を与えます。',
  ],
  [
    'mod/mod_auth_basic',
    'mod_auth_basic',
    'ベーシック認証を提供します。認証プロバイダでパスワードを確かめ、承認はアクセス制御の設定に任せます。',
  ],
  [
    'mod/mod_authn_file',
    'mod_authn_file',
    'テキストファイルによるユーザ認証を提供します。パスワードファイルを使います。承認とアクセス制御は別のモジュールです。',
  ],
  [
    'mod/mod_authz_core',
    'mod_authz_core',
    '承認の中核を提供します。認証されたユーザへのアクセス制御を Require で書きます。',
  ],
  ['vhosts/index', 'バーチャルホスト', '一つのサーバで複数のサイトを提供するバーチャルホストの説明です。'],
  ['logs', 'ログファイル', 'アクセスログとエラーログの書式と回転について説明します。'],
  ['caching', 'キャッシュ', 'キャッシュによって応答を速くする方法を説明します。'],
  ['mod/mod_rewrite', 'mod_rewrite', '正規表現で URL を書き換える規則を提供します。'],
  ['mod/mod_proxy', 'mod_proxy', 'リバースプロキシとゲートウェイの機能を提供します。'],
  ['mod/mod_ssl', 'mod_ssl', '暗号化された通信と証明書の設定を提供します。'],
  ['mod/mod_dir', 'mod_dir', 'ディレクトリへの要求に索引ファイルを返します。'],
  ['install', 'コンパイルとインストール', 'ソースからサーバを構築して起動する手順です。'],
  ['filter', 'フィルタ', '出力を変換するフィルタの仕組みを説明します。'],
  ['urlmapping', 'URL からファイルシステムへのマップ', '要求された URL を文書のファイルに対応づけます。'],
];

/** The Japanese server manual: the site's menu, version line and breadcrumb frame every page. */
export function serverManual(): BundlePage[] {
  return SERVER_PAGES.map(([slug, title, text]) => ({
    url: `${MANUAL_HOST}/ja/${slug}.html`,
    status: 200,
    html: manualHtml(title, text),
  }));
}

/** The template words related keywords of 認証 were made of on the real manual. */
export const SERVER_TEMPLATE_WORDS = [
  'サイト',
  'サイトマップ',
  'サーバ',
  'ディレクティブ',
  'ドキュメンテーション',
  'バージョン',
  'マップ',
  'モジュール',
];
