/**
 * The pages of a small bilingual documentation site, "Aozora Notes" (a note-taking app), that the
 * screenshot script indexes so the pictures in the README show what a visitor of a real site sees:
 * guides, an API reference, a blog and FAQs in English and Japanese, a PDF manual, and the
 * categories and drill-down rules a site owner would configure for them.
 */
import type { SearchServiceConfig } from '../src/domain/schemas.js';
import type { IndexedDocument } from '../src/search/index.js';

export const DEMO_ORIGIN = 'https://docs.aozora-notes.example';

interface DemoPage {
  path: string;
  title: string;
  description?: string;
  body: string;
  doctype?: IndexedDocument['doctype'];
  /** Days before the screenshot date. */
  ageDays: number;
}

const PAGES: DemoPage[] = [
  {
    path: '/en/guide/sync.html',
    title: 'Sync your notes across devices',
    description: 'Turn on sync to keep notes, notebooks and attachments the same on every device.',
    body:
      'Sync keeps every note, notebook and attachment the same on your phone, tablet and computer. ' +
      'Open Settings, choose Account, and turn on Sync. The first sync uploads your library; later syncs ' +
      'send only what changed, usually within a few seconds. When two devices edit the same note offline, ' +
      'Aozora Notes keeps both versions and marks the note as a conflict so nothing is lost.',
    ageDays: 12,
  },
  {
    path: '/en/guide/offline.html',
    title: 'Work offline and sync later',
    body:
      'Every note you opened recently stays available offline. Edits made without a connection are queued ' +
      'and sync automatically when the device is back online. Pin a notebook to keep all of its notes and ' +
      'attachments on the device, even ones you have not opened yet.',
    ageDays: 40,
  },
  {
    path: '/en/guide/sync-conflicts.html',
    title: 'Resolve sync conflicts',
    body:
      'A sync conflict happens when the same note was changed on two devices before either could sync. ' +
      'Open the note, compare the two versions side by side, and keep one or merge them. Conflicts never ' +
      'overwrite your writing: both versions stay in the note history for 30 days.',
    ageDays: 75,
  },
  {
    path: '/en/guide/shortcuts.html',
    title: 'Keyboard shortcuts',
    body:
      'Press Ctrl+N for a new note, Ctrl+K to search all notes, and Ctrl+Shift+S to sync now. ' +
      'On a Mac, use Cmd instead of Ctrl. Every command in the menu shows its shortcut beside it.',
    ageDays: 200,
  },
  {
    path: '/en/guide/sharing.html',
    title: 'Share a notebook with your team',
    body:
      'Invite people to a shared notebook by email. Editors can change notes, viewers can read and comment. ' +
      'Changes from everyone sync in real time, and the activity panel shows who changed what.',
    ageDays: 18,
  },
  {
    path: '/en/guide/export.html',
    title: 'Export notes to Markdown and PDF',
    body:
      'Export a note or a whole notebook as Markdown files, a PDF, or an HTML archive. Attachments are ' +
      'exported beside the notes, and links between notes keep working in the exported files.',
    ageDays: 90,
  },
  {
    path: '/en/api/sync-endpoint.html',
    title: 'Sync API: GET /v2/changes',
    body:
      'The changes endpoint returns every note created, updated or deleted since a sync token. Pass the ' +
      'token of the previous answer to receive only newer changes. A client that syncs in the background ' +
      'should call it at most once a minute and honour the Retry-After header.',
    ageDays: 30,
  },
  {
    path: '/en/api/authentication.html',
    title: 'API authentication with personal tokens',
    body:
      'Create a personal access token under Settings, Developer. Send it in the Authorization header as a ' +
      'bearer token. Tokens can be limited to read-only access and revoked at any time.',
    ageDays: 120,
  },
  {
    path: '/en/blog/2026-sync-engine.html',
    title: 'How we rebuilt the sync engine',
    body:
      'This year we replaced the sync engine that had served Aozora Notes since its first release. The new ' +
      'engine sends changes as small operations instead of whole notes, so sync on a slow mobile ' +
      'connection is up to ten times faster and uses far less data.',
    ageDays: 8,
  },
  {
    path: '/en/blog/handwriting.html',
    title: 'Handwriting search arrives on tablets',
    body:
      'Notes written by hand with a stylus are now searchable. Handwriting is recognised on the device, ' +
      'in English and Japanese, and the words found are highlighted on the page.',
    ageDays: 55,
  },
  {
    path: '/en/faq/storage.html',
    title: 'How much storage does my plan include?',
    body:
      'The free plan includes 2 GB of synced storage; the personal plan 50 GB and the team plan 1 TB per ' +
      'member. Notes themselves are small: attachments such as scans and recordings use most storage.',
    ageDays: 150,
  },
  {
    path: '/en/manual/aozora-notes-manual.pdf',
    title: 'Aozora Notes user manual (PDF)',
    body:
      'The complete user manual: getting started, notebooks and tags, sync and backup, sharing, export, ' +
      'keyboard shortcuts and troubleshooting. Chapter 4 explains how sync works and how to resolve conflicts.',
    doctype: 'pdf',
    ageDays: 100,
  },
  {
    path: '/ja/guide/sync.html',
    title: 'デバイス間でノートを同期する',
    description: '同期をオンにすると、ノート、ノートブック、添付ファイルがすべてのデバイスで同じになります。',
    body:
      '同期を使うと、スマートフォン、タブレット、パソコンのノートがいつも同じ内容になります。設定を開き、' +
      'アカウントを選んで同期をオンにしてください。最初の同期ではライブラリ全体をアップロードし、その後は' +
      '変更された部分だけを数秒で送ります。オフラインで同じノートを二台で編集した場合は、両方の版を残して' +
      '競合として表示するので、書いた内容が失われることはありません。',
    ageDays: 12,
  },
  {
    path: '/ja/guide/offline.html',
    title: 'オフラインで作業してあとで同期する',
    body:
      '最近開いたノートはオフラインでも表示できます。接続がないときの編集は保存され、オンラインに戻ると' +
      '自動で同期されます。ノートブックを固定すると、まだ開いていないノートや添付ファイルも端末に保存されます。',
    ageDays: 40,
  },
  {
    path: '/ja/guide/sync-conflicts.html',
    title: '同期の競合を解決する',
    body:
      '同期の競合は、同じノートが同期される前に二台のデバイスで変更されたときに起こります。ノートを開き、' +
      '二つの版を並べて比べ、どちらかを残すか統合してください。競合で文章が上書きされることはなく、' +
      '両方の版は三十日間ノートの履歴に残ります。',
    ageDays: 75,
  },
  {
    path: '/ja/guide/shortcuts.html',
    title: 'キーボードショートカット',
    body:
      'Ctrl+N で新しいノート、Ctrl+K ですべてのノートを検索、Ctrl+Shift+S ですぐに同期します。' +
      'Mac では Ctrl の代わりに Cmd を使います。',
    ageDays: 200,
  },
  {
    path: '/ja/guide/sharing.html',
    title: 'チームでノートブックを共有する',
    body:
      'メールアドレスで共有ノートブックに招待できます。編集者はノートを変更でき、閲覧者は読んでコメントできます。' +
      '全員の変更はリアルタイムで同期され、アクティビティ欄で誰が何を変えたかがわかります。',
    ageDays: 18,
  },
  {
    path: '/ja/blog/2026-sync-engine.html',
    title: '同期エンジンを作り直しました',
    body:
      '今年、最初のリリースから使ってきた同期エンジンを置き換えました。新しいエンジンはノート全体ではなく' +
      '小さな操作として変更を送るため、遅いモバイル回線での同期が最大十倍速くなり、通信量も大きく減りました。',
    ageDays: 8,
  },
  {
    path: '/ja/blog/handwriting.html',
    title: 'タブレットで手書き検索が使えるようになりました',
    body:
      'スタイラスで手書きしたノートが検索できるようになりました。手書き文字は端末上で認識され、日本語と英語に' +
      '対応し、見つかった言葉はページ上で強調表示されます。',
    ageDays: 55,
  },
  {
    path: '/ja/faq/storage.html',
    title: 'プランの保存容量はどれくらいですか？',
    body:
      '無料プランは同期できる容量が 2 GB、パーソナルプランは 50 GB、チームプランはメンバーごとに 1 TB です。' +
      'ノート自体は小さく、容量の大部分はスキャンや録音などの添付ファイルが使います。',
    ageDays: 150,
  },
  {
    path: '/ja/manual/aozora-notes-manual.pdf',
    title: 'Aozora Notes ユーザーマニュアル（PDF）',
    body:
      'はじめに、ノートブックとタグ、同期とバックアップ、共有、書き出し、キーボードショートカット、' +
      'トラブルシューティングを説明する完全版マニュアルです。第四章で同期の仕組みと競合の解決方法を説明します。',
    doctype: 'pdf',
    ageDays: 100,
  },
];

const DAY_SECONDS = 86_400;

/** The site's documents as the indexer takes them, dated relative to `nowSeconds`. */
export function demoDocuments(nowSeconds: number): IndexedDocument[] {
  return PAGES.map((page) => ({
    url: `${DEMO_ORIGIN}${page.path}`,
    title: page.title,
    description: page.description ?? '',
    body: page.body,
    contentSize: Buffer.byteLength(page.body) + 2048,
    lastModified: nowSeconds - page.ageDays * DAY_SECONDS,
    doctype: page.doctype ?? 'html',
  }));
}

const escaped = DEMO_ORIGIN.replace(/[.]/g, '\\.');

/** Categories by section and a drill-down by language and section, as a site owner sets them. */
export const DEMO_SEARCH_CONFIG: SearchServiceConfig = {
  categories: [
    { name: 'Guides', url_pattern: `^${escaped}/[a-z]+/guide/` },
    { name: 'API', url_pattern: `^${escaped}/[a-z]+/api/` },
    { name: 'Blog', url_pattern: `^${escaped}/[a-z]+/blog/` },
    { name: 'FAQ', url_pattern: `^${escaped}/[a-z]+/faq/` },
    { name: 'Manuals', url_pattern: `^${escaped}/[a-z]+/manual/` },
  ],
  drilldowns: [
    { url_pattern: `^${escaped}/en/([a-z]+)/`, path: 'English\t$1' },
    { url_pattern: `^${escaped}/ja/([a-z]+)/`, path: '日本語\t$1' },
  ],
};
