/**
 * Stored display heads (src/search/display-head.ts; docs/design/search-engine.md, Stored display
 * heads): the start of a page's main text cut when the page is indexed is the one a search would
 * cut from its body, for as long as it holds; when a line it was cut by changes side of the
 * template it is not used, and the index stores it again when it splits the page again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  DISPLAY_HEAD_CHARS,
  displayHeadOf,
  type DisplayHeadToStore,
  HEAD_RUNS_MAX_BODY_UNITS,
  headTextOfRuns,
  type StoredDisplayHead,
  storedHeadFor,
} from '../../src/search/display-head.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { QueryHighlighter } from '../../src/search/highlight/query-highlighter.js';
import { mainTextHead } from '../../src/search/main-text-head.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { organicDocsOf } from '../../src/search/site/organic-docs.js';
import type { HitDocumentSource } from '../../src/search/storage/hit-documents.js';
import { blockHashOf, type TemplateBlocks } from '../../src/search/template-blocks.js';
import { seededRandom } from '../support/seeded-random.js';
import { queryTreeOf } from '../../src/search/query-tree.js';
import { rankedSearch } from '../support/ranked-search.js';
import { UNDO_FORMAT_12 } from './format-11-segment.js';
import { undoFormat15 } from './format-14-postings.js';

const HOST = 'docs.example';
const PAGE_URL = `https://${HOST}/guide/page.html`;
const NAVIGATION = ['Home', 'Guide › Install', 'Copyright 2026 Example'];
const CONTENT = [
  'Install the package.',
  '検索エンジンの設定',
  'An emoji 🍣 and 𠮷野家.',
  'x'.repeat(350),
  '',
];
const TEMPLATE: TemplateBlocks = new Map([[HOST, new Set(NAVIGATION.map(blockHashOf))]]);
const NO_TEMPLATE: TemplateBlocks = new Map();

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function bodyOf(random: () => number, lines: number): string {
  const pool = [...NAVIGATION, ...CONTENT];
  return Array.from({ length: lines }, () => pool[Math.floor(random() * pool.length)]!).join('\n');
}

/**
 * The start of a body as a hit reads it for a head kept as runs: its first `bodyEnd` code points,
 * as SQLite's substr gives them, line breaks as spaces.
 */
function bodyStartOf(body: string, bodyEnd: number): string {
  return [...body].slice(0, bodyEnd).join('').replaceAll('\n', ' ');
}

/** A head as a search reads it back. */
function readBack(stored: DisplayHeadToStore, body: string): StoredDisplayHead {
  if (stored.runs === null) return stored;
  assert.equal(stored.text, '', 'a head kept as runs has no text');
  return { ...stored, text: headTextOfRuns(bodyStartOf(body, stored.runs.bodyEnd), stored.runs.runs) };
}

/** The head a search cuts from the whole body. */
function cutHead(body: string, url: string, blocks: TemplateBlocks) {
  return mainTextHead(body, true, url, { blocks, lineLengths: new Map() }, DISPLAY_HEAD_CHARS);
}

describe('a display head cut at indexing', () => {
  test('is the head a search cuts from the body, with a template or without, short or past the cut', () => {
    const random = seededRandom(11);
    const kept = { runs: 0, text: 0 };
    for (let round = 0; round < 300; round += 1) {
      // Some bodies run past the head's 20,000 code points, in lines of 350, and some past the
      // length whose head is kept as text.
      const draw = random();
      const body = bodyOf(random, draw < 0.1 ? 1_500 : draw < 0.3 ? 150 : 1 + Math.floor(random() * 40));
      for (const blocks of [TEMPLATE, NO_TEMPLATE]) {
        const stored = displayHeadOf(body, PAGE_URL, blocks);
        assert.equal(
          stored.runs !== null,
          body.length <= HEAD_RUNS_MAX_BODY_UNITS,
          `round ${round}, kept as runs`,
        );
        kept[stored.runs === null ? 'text' : 'runs'] += 1;
        const read = readBack(stored, body);
        const cut = cutHead(body, PAGE_URL, blocks)!;
        assert.deepEqual({ text: read.text, more: read.more }, cut, `round ${round}`);
        assert.deepEqual(storedHeadFor(read, PAGE_URL, blocks), cut, `round ${round}, held`);
      }
    }
    assert.ok(kept.runs > 100 && kept.text > 10, `both forms were stored: ${JSON.stringify(kept)}`);
  });

  test('kept as runs, it reads the body only as far as the head reaches', () => {
    // Template lines around main text of two-unit code points.
    const content = Array.from({ length: 40 }, (_, n) => `${n} ${'🍣𠮷'.repeat(50)}`);
    const body = [...NAVIGATION.slice(0, 2), ...content, NAVIGATION[2]!].join('\n');
    assert.ok(body.length <= HEAD_RUNS_MAX_BODY_UNITS);
    const stored = displayHeadOf(body, PAGE_URL, TEMPLATE);
    assert.ok(stored.runs !== null);
    // The runs end with the last line of main text, before the footer.
    assert.equal(stored.runs.bodyEnd, body.length - NAVIGATION[2]!.length - 1);
    assert.equal(readBack(stored, body).text, cutHead(body, PAGE_URL, TEMPLATE)!.text);
    // A page that is all template shows its whole body, kept as one run.
    const allTemplate = NAVIGATION.join('\n');
    const whole = displayHeadOf(allTemplate, PAGE_URL, TEMPLATE);
    assert.equal(whole.runs?.bodyEnd, allTemplate.length);
    assert.equal(readBack(whole, allTemplate).text, NAVIGATION.join(' '));
  });

  test('a template holding none of the page’s lines cuts the head the body without a template gives', () => {
    const random = seededRandom(5);
    const elsewhere: TemplateBlocks = new Map([[HOST, new Set([blockHashOf('Only on other pages')])]]);
    for (let round = 0; round < 200; round += 1) {
      const body = bodyOf(random, 1 + Math.floor(random() * 80));
      assert.deepEqual(cutHead(body, PAGE_URL, elsewhere), cutHead(body, PAGE_URL, NO_TEMPLATE));
      // So a head cut without a template holds once the host has one the page does not carry.
      assert.deepEqual(
        storedHeadFor(readBack(displayHeadOf(body, PAGE_URL, NO_TEMPLATE), body), PAGE_URL, elsewhere),
        cutHead(body, PAGE_URL, elsewhere),
      );
    }
  });

  test('holds while its lines keep their side, and not once one of them moves', () => {
    const body = ['Home', 'Install the package.', 'Maintenance on Sunday', 'Copyright 2026 Example'].join(
      '\n',
    );
    const stored = readBack(displayHeadOf(body, PAGE_URL, TEMPLATE), body);
    assert.equal(stored.text, 'Install the package. Maintenance on Sunday');
    const withLine = (line: string): TemplateBlocks =>
      new Map([[HOST, new Set([...TEMPLATE.get(HOST)!, blockHashOf(line)])]]);
    // A line on other pages only becomes template: the page's head is the same.
    assert.deepEqual(
      storedHeadFor(stored, PAGE_URL, withLine('Download')),
      cutHead(body, PAGE_URL, withLine('Download')),
    );
    // One of its own lines becomes template, or stops being: the head is cut again.
    assert.equal(storedHeadFor(stored, PAGE_URL, withLine('Maintenance on Sunday')), undefined);
    const withoutHome: TemplateBlocks = new Map([[HOST, new Set([blockHashOf('Copyright 2026 Example')])]]);
    assert.equal(storedHeadFor(stored, PAGE_URL, withoutHome), undefined);
    assert.equal(storedHeadFor(stored, PAGE_URL, NO_TEMPLATE), undefined);
  });
});

/** Pages of one host: the same navigation and footer around each page's own text. */
function sitePages(count: number, extra: (n: number) => string = () => ''): IndexedDocument[] {
  return Array.from({ length: count }, (_, n) => ({
    url: `https://${HOST}/page-${n}.html`,
    title: `Page ${n}`,
    description: '',
    body: [
      'Home',
      'Guide › Install',
      `Page ${n} explains step ${n} of the install.`,
      extra(n),
      'Copyright 2026 Example',
    ]
      .filter((line) => line !== '')
      .join('\n'),
  }));
}

/** Every searchable document's stored head is there, holds, and is the head cut from its body. */
function assertHeadsHold(index: SearchIndex, count: number): void {
  const blocks = index.searcher().templateBlocks();
  for (let n = 0; n < count; n += 1) {
    const url = `https://${HOST}/page-${n}.html`;
    const id = index.store.documentIdOf(url)!;
    const document = index.searcher().hitDocument(id, 32_000)!;
    assert.ok(document.displayHead, `${url} has its head stored`);
    assert.equal(document.bodyHead, '', `${url}: the body is not read`);
    const held = storedHeadFor(document.displayHead, url, blocks);
    assert.deepEqual(held, cutHead(index.searcher().wholeBody(id)!, url, blocks), `${url}: the head holds`);
  }
}

function newIndex(): { index: SearchIndex; file: string } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-display-head-'));
  folders.push(folder);
  const file = path.join(folder, 'service-1.db');
  return { index: new SearchIndex(file), file };
}

describe('the display heads of an index', () => {
  test('are stored with each batch and stored again when a line changes side', () => {
    const { index } = newIndex();
    try {
      index.writer.upsert(sitePages(10), 'bundle:test');
      assert.ok(
        index.searcher().templateBlocks().get(HOST)?.has(blockHashOf('Home')),
        'the navigation is template',
      );
      assertHeadsHold(index, 10);
      const notice = 'Maintenance window on Sunday night';
      // On four pages of ten the notice becomes template: the first page, indexed before, is split again.
      index.writer.upsert([sitePages(1, () => notice)[0]!], 'bundle:test');
      assertHeadsHold(index, 10);
      index.writer.upsert(
        sitePages(4, () => notice),
        'bundle:test',
      );
      assert.ok(
        index.searcher().templateBlocks().get(HOST)?.has(blockHashOf(notice)),
        'the notice is template',
      );
      assertHeadsHold(index, 10);
      const first = index
        .searcher()
        .hitDocument(index.store.documentIdOf(`https://${HOST}/page-0.html`)!, 32_000)!;
      assert.equal(first.displayHead?.text, 'Page 0 explains step 0 of the install.');
    } finally {
      index.close();
    }
  });

  test('of a staged run are read once it is applied, and a discarded run leaves the old ones', () => {
    const { index } = newIndex();
    try {
      index.writer.upsert(sitePages(6), 'bundle:test');
      const changed = sitePages(6, (n) => `Revised in run ${n}.`);
      index.writer.stage('run-1', changed);
      assertHeadsHold(index, 6);
      const url = `https://${HOST}/page-2.html`;
      const id = index.store.documentIdOf(url)!;
      assert.equal(
        index.searcher().hitDocument(id, 32_000)!.displayHead?.text,
        'Page 2 explains step 2 of the install.',
      );
      index.writer.discardStaged('run-1');
      assert.equal(
        index.searcher().hitDocument(id, 32_000)!.displayHead?.text,
        'Page 2 explains step 2 of the install.',
      );
      index.writer.stage('run-2', changed);
      index.writer.applyStaged('run-2', { gone: [], feed: 'setting:1', release: () => false });
      assertHeadsHold(index, 6);
      assert.equal(
        index.searcher().hitDocument(id, 32_000)!.displayHead?.text,
        'Page 2 explains step 2 of the install. Revised in run 2.',
      );
    } finally {
      index.close();
    }
  });

  test('a file of format 8 gains the tables; its pages show the heads cut from their bodies until the next write stores theirs', () => {
    const { index, file } = newIndex();
    index.writer.upsert(sitePages(6), 'bundle:test');
    index.close();
    const db = new Database(file);
    db.exec(
      UNDO_FORMAT_12 +
        "DROP TRIGGER documents_drop_display_head; DROP TABLE display_heads; DROP TABLE staged_display_heads; DROP INDEX staged_documents_id; DELETE FROM index_meta WHERE key = 'display_heads_complete'; UPDATE index_meta SET value = '8' WHERE key = 'schema'",
    );
    db.close();
    const upgraded = new SearchIndex(file);
    try {
      const url = `https://${HOST}/page-3.html`;
      const id = upgraded.store.documentIdOf(url)!;
      const document = upgraded.searcher().hitDocument(id, 32_000)!;
      assert.equal(document.displayHead, undefined);
      assert.equal(document.bodyComplete, true);
      assert.match(document.bodyHead, /^Home\nGuide › Install\nPage 3 explains/);
      // A write of one other page: the pages indexed before, unchanged, get their heads too.
      upgraded.writer.upsert(
        [{ url: `https://${HOST}/news.html`, title: 'News', description: '', body: 'Released.' }],
        'bundle:test',
      );
      assertHeadsHold(upgraded, 6);
      assert.equal(upgraded.store.displayHeads.complete(), true);
    } finally {
      upgraded.close();
    }
  });

  test('a run staged without heads (before format 9) and applied after: its pages get theirs as it is applied', () => {
    const { index, file } = newIndex();
    try {
      index.writer.upsert(sitePages(6), 'bundle:test');
      index.writer.stage(
        'run-1',
        sitePages(6, (n) => `Revised in run ${n}.`),
      );
      const db = new Database(file);
      db.exec('DELETE FROM staged_display_heads');
      db.close();
      index.writer.applyStaged('run-1', { gone: [], feed: 'setting:1', release: () => false });
      // The old versions' heads went with them, and the apply cut the new versions' heads.
      assert.equal(index.store.displayHeads.complete(), true);
      assertHeadsHold(index, 6);
      const id = index.store.documentIdOf(`https://${HOST}/page-2.html`)!;
      assert.equal(
        index.searcher().hitDocument(id, 32_000)!.displayHead?.text,
        'Page 2 explains step 2 of the install. Revised in run 2.',
      );
    } finally {
      index.close();
    }
  });

  test('a page new in a staged run, whose line became template before the run was applied, is split again as it is applied', () => {
    const { index } = newIndex();
    try {
      const notice = 'Maintenance window on Sunday night';
      index.writer.upsert(sitePages(10), 'bundle:test');
      const newcomer = { ...sitePages(11, () => notice)[10]! };
      index.writer.stage('run-1', [newcomer]);
      // Meanwhile the notice becomes template, out of reach of the staged copy.
      index.writer.upsert(
        sitePages(5, () => notice),
        'bundle:test',
      );
      assert.ok(index.searcher().templateBlocks().get(HOST)?.has(blockHashOf(notice)));
      index.writer.applyStaged('run-1', { gone: [], feed: 'setting:1', release: () => false });
      assert.deepEqual(rankedSearch(index, 'maintenance').docs, [], 'template words find nothing');
      assertHeadsHold(index, 11);
      const id = index.store.documentIdOf(newcomer.url)!;
      assert.equal(
        index.searcher().hitDocument(id, 32_000)!.displayHead?.text,
        'Page 10 explains step 10 of the install.',
      );
    } finally {
      index.close();
    }
  });

  test('a short body’s head is kept as runs of it and a long body’s as text, and both read back as the head cut', () => {
    const { index, file } = newIndex();
    try {
      const long = 'x'.repeat(300);
      // Page 4's text has code points of two code units, which SQLite counts as one.
      const extra = (n: number) =>
        n === 5
          ? Array.from({ length: 300 }, () => long).join('\n')
          : n === 3
            ? 'Part\u0000number'
            : n === 4
              ? `🍣𠮷 ${'寿司 🍣\n'.repeat(40)}`
              : '';
      const pages = sitePages(6, extra);
      index.writer.upsert(pages, 'bundle:test');
      assertHeadsHold(index, 6);
      const db = new Database(file, { readonly: true });
      const rows = db
        .prepare(
          `SELECT d.url, h.head, h.runs IS NOT NULL AS byRuns, h.body_end AS bodyEnd
           FROM display_heads h JOIN documents d ON d.id = h.id ORDER BY d.url`,
        )
        .all() as { url: string; head: string; byRuns: number; bodyEnd: number | null }[];
      db.close();
      // Page 5's body is long; page 3's holds a NUL, at which SQLite's substr would stop.
      for (const row of rows) {
        const asText = row.url.endsWith('page-5.html') || row.url.endsWith('page-3.html');
        assert.equal(row.byRuns, asText ? 0 : 1, row.url);
        assert.equal(row.head === '', !asText, row.url);
      }
      // The short pages' runs end at their own text's end, before the footer.
      const first = rows.find((row) => row.url.endsWith('page-0.html'))!;
      assert.equal(first.bodyEnd, 'Home\nGuide › Install\nPage 0 explains step 0 of the install.'.length);
    } finally {
      index.close();
    }
  });

  test('a file of format 13 keeps its heads as text and stores runs from its next write', () => {
    const { index, file } = newIndex();
    index.writer.upsert(sitePages(4), 'bundle:test');
    index.close();
    const db = new Database(file);
    undoFormat15(db);
    // Format 13's heads are text: as this version would write them without runs.
    db.exec(`UPDATE display_heads SET head = (SELECT replace(replace(body, 'Home' || char(10) || 'Guide › Install' || char(10), ''),
      char(10) || 'Copyright 2026 Example', '') FROM documents d WHERE d.id = display_heads.id)`);
    db.exec(
      "ALTER TABLE display_heads DROP COLUMN runs; ALTER TABLE display_heads DROP COLUMN body_end; ALTER TABLE staged_display_heads DROP COLUMN runs; ALTER TABLE staged_display_heads DROP COLUMN body_end; UPDATE index_meta SET value = '13' WHERE key = 'schema'",
    );
    db.close();
    const upgraded = new SearchIndex(file);
    try {
      assertHeadsHold(upgraded, 4);
      upgraded.writer.upsert(sitePages(6).slice(4), 'bundle:test');
      assertHeadsHold(upgraded, 6);
      const reader = new Database(file, { readonly: true });
      const forms = reader
        .prepare("SELECT head = '' AS empty, runs IS NOT NULL AS byRuns FROM display_heads ORDER BY id")
        .all();
      assert.equal(reader.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get(), '17');
      reader.close();
      assert.deepEqual(forms, [
        ...Array.from({ length: 4 }, () => ({ empty: 0, byRuns: 0 })),
        ...Array.from({ length: 2 }, () => ({ empty: 1, byRuns: 1 })),
      ]);
    } finally {
      upgraded.close();
    }
  });

  test('a footer holding a lone surrogate is left out of the stored head as a search leaves it out of the stored body', () => {
    const { index } = newIndex();
    try {
      // SQLite keeps the lone half as U+FFFD: the template counts that form.
      const pages = sitePages(6).map((page) => ({ ...page, body: `${page.body}\nFollow us \ud83d` }));
      index.writer.upsert(pages, 'bundle:test');
      assert.ok(index.searcher().templateBlocks().get(HOST)?.has(blockHashOf('Follow us \ufffd')));
      assertHeadsHold(index, 6);
    } finally {
      index.close();
    }
  });
});

describe('result pages with stored display heads', () => {
  const hitsOf = (index: SearchIndex, count: number) =>
    Array.from({ length: count }, (_, n) => ({
      id: index.store.documentIdOf(`https://${HOST}/page-${n}.html`)!,
      ranking: n + 1,
      drilldown: [],
      copyUrls: [],
    }));

  test('a head whose lines changed side, and a page read without heads, give the page the body gives', () => {
    const { index } = newIndex();
    try {
      index.writer.upsert(
        sitePages(8, (n) => `Step ${n} needs the install key.`),
        'bundle:test',
      );
      const templates = index.searcher().hitTemplates();
      const highlighter = QueryHighlighter.of(queryTreeOf('install'));
      const hits = hitsOf(index, 8);
      const withHeads = organicDocsOf(hits, index.searcher(), highlighter, templates);
      // Cut as before format 9: no head, the body's start read with the document.
      const withoutHeads: HitDocumentSource = {
        hitDocument: (id, chars) => ({
          ...index.searcher().hitDocument(id, chars)!,
          ...index.searcher().bodyHead(id, chars)!,
          displayHead: undefined,
        }),
        bodyHead: () => assert.fail('the body is read with the document'),
        wholeBody: (id) => index.searcher().wholeBody(id),
        linkText: (id, chars) => index.searcher().linkText(id, chars),
      };
      // Heads cut as if the host had no template: each holds a navigation line as kept.
      const stale: HitDocumentSource = {
        hitDocument: (id, chars) => {
          const document = index.searcher().hitDocument(id, chars)!;
          return {
            ...document,
            displayHead: displayHeadOf(index.searcher().wholeBody(id)!, document.url, new Map()),
          };
        },
        bodyHead: (id, chars) => index.searcher().bodyHead(id, chars),
        wholeBody: (id) => index.searcher().wholeBody(id),
        linkText: (id, chars) => index.searcher().linkText(id, chars),
      };
      assert.deepEqual(organicDocsOf(hits, withoutHeads, highlighter, templates), withHeads);
      assert.deepEqual(organicDocsOf(hits, stale, highlighter, templates), withHeads);
      assert.equal(
        withHeads[2]!.start_text,
        'Page 2 explains step 2 of the install. Step 2 needs the install key.',
      );
      // A page removed between reading its row and its body is left out, not shown empty.
      const gone: HitDocumentSource = { ...stale, bodyHead: () => undefined, wholeBody: () => undefined };
      assert.deepEqual(organicDocsOf(hits, gone, highlighter, templates), []);
    } finally {
      index.close();
    }
  });
});
