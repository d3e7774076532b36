/**
 * The counts of page-template lines (docs/design/search-engine.md, Page templates) are gathered
 * per write transaction and written before it commits: whatever writes the documents (a pass, a
 * changed page, a removal, a staged run and its apply, a write that fails), the counts stay those
 * of the documents the file holds, and a file whose triggers wrote the counts is upgraded.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { SearchIndex } from '../../src/search/search-index.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { registerTemplateFunctions } from '../../src/search/storage/template-block-schema.js';
import { rankedSearch } from '../support/ranked-search.js';
import { undoFormat15 } from './format-14-postings.js';

const FEED = 'bundle:counts';
const SITES = ['https://docs.example', 'https://shop.example'];
const MENU = ['Home', 'Guides', 'Reference', 'Downloads', 'Contact us'];

/** A page of `site` holding the site's menu and footer lines and text of its own. */
function page(
  site: string,
  slug: string,
  words: string,
  extra: Partial<IndexedDocument> = {},
): IndexedDocument {
  return {
    url: `${site}/${slug}.html`,
    title: `${slug} | ${new URL(site).host}`,
    description: '',
    body: [...MENU, `${slug} explains ${words}`, `More about ${words} on ${slug}`, 'Copyright Example'].join(
      '\n',
    ),
    template: `${new URL(site).host} navigation`,
    ...extra,
  };
}

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-template-counts-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** The counts as the file holds them and as counting its documents again gives them. */
function countsOf(file: string): { stored: string[]; recounted: string[] } {
  const db = new Database(file, { readonly: true });
  registerTemplateFunctions(db);
  try {
    const stored = db
      .prepare(
        `SELECT h.host || ' ' || h.pages || ' ' || b.block || ' ' || b.pages FROM template_blocks b
         JOIN template_hosts h ON h.id = b.host_id ORDER BY 1`,
      )
      .pluck()
      .all() as string[];
    const recounted = db
      .prepare(
        `WITH hosts AS (SELECT page_host(url) AS host, count(*) AS pages FROM documents GROUP BY 1)
         SELECT h.host || ' ' || h.pages || ' ' || CAST(b.block AS INTEGER) || ' ' || count(*) FROM documents d
         JOIN hosts h ON h.host = page_host(d.url), body_blocks(d.title, d.body, d.template) b
         GROUP BY h.host, b.block ORDER BY 1`,
      )
      .pluck()
      .all() as string[];
    return { stored, recounted };
  } finally {
    db.close();
  }
}

function assertCountsMatch(file: string): void {
  const { stored, recounted } = countsOf(file);
  assert.ok(recounted.length > 0);
  assert.deepEqual(stored, recounted);
}

let file: string;
let index: SearchIndex;

/** A page's row written straight into the store, as a batch writes it, inside the caller's transaction. */
function insertRow(slug: string, words = slug): number {
  const { url, title, body, template } = page(SITES[0]!, slug, words);
  return index.store.insertDocument(
    {
      url,
      title,
      description: '',
      headings: '',
      body,
      template: template ?? '',
      contentSize: 0,
      lastModified: 0,
      doctype: 'html',
    },
    Buffer.alloc(32),
  );
}
let fileNumber = 0;
beforeEach(() => {
  fileNumber += 1;
  file = path.join(folder, `service-${fileNumber}.db`);
  index = new SearchIndex(file);
});

describe('template counts', () => {
  test('stay those of the documents through a pass, changed pages and removals', () => {
    try {
      const pass = { key: 'feed:first-pass', judged: new Set<string>(), adopted: new Set<string>() };
      for (const site of SITES) {
        const pages = Array.from({ length: 12 }, (_, n) => page(site, `p${n}`, `topic${n}`));
        index.writer.upsert(pages, FEED, undefined, pass);
      }
      index.writer.finishPass(pass);
      assertCountsMatch(file);
      // Every menu line is on all 12 pages of each host: template, and no longer found as text.
      assert.equal(rankedSearch(index, 'downloads').hits, 0);
      assert.equal(rankedSearch(index, 'topic3').hits, 2);

      index.writer.upsert(
        [
          page(SITES[0]!, 'p1', 'changed words', { body: 'A page without the menu\nchanged words' }),
          page(SITES[1]!, 'p2', 'renamed', { title: 'Renamed page' }),
          page(SITES[1]!, 'p12', 'newcomer'),
        ],
        FEED,
      );
      assertCountsMatch(file);
      assert.equal(index.writer.remove([`${SITES[0]}/p4.html`, `${SITES[1]}/p5.html`]), 2);
      assertCountsMatch(file);
      assert.equal(rankedSearch(index, 'newcomer').hits, 1);
    } finally {
      index.close();
    }
  });

  test('stay those of the documents through a staged run, its apply and a run discarded', () => {
    try {
      index.writer.upsert(
        Array.from({ length: 10 }, (_, n) => page(SITES[0]!, `p${n}`, `topic${n}`)),
        FEED,
      );
      index.writer.stage('run-1', [
        page(SITES[0]!, 'p0', 'restaged', { body: 'Only restaged words now' }),
        page(SITES[0]!, 'p10', 'staged newcomer'),
      ]);
      // A staged run's new page is a row already; a changed page's new text waits aside.
      assertCountsMatch(file);
      index.writer.stage('run-2', [page(SITES[0]!, 'p11', 'dropped run')]);
      index.writer.discardStaged('run-2');
      assertCountsMatch(file);
      index.writer.applyStaged('run-1', {
        feed: FEED,
        gone: [`${SITES[0]}/p9.html`],
        release: () => false,
      });
      assertCountsMatch(file);
      assert.equal(rankedSearch(index, 'restaged').hits, 1);
    } finally {
      index.close();
    }
  });

  test('of a write that fails are forgotten with it', () => {
    try {
      index.writer.upsert([page(SITES[0]!, 'p0', 'first')], FEED);
      const before = countsOf(file).stored;
      assert.throws(
        () =>
          index.store.writeTransaction(() => {
            insertRow('p1', 'second');
            throw new Error('the batch failed');
          }),
        /the batch failed/,
      );
      assert.deepEqual(countsOf(file).stored, before);
      index.writer.upsert([page(SITES[0]!, 'p2', 'third')], FEED);
      assertCountsMatch(file);
    } finally {
      index.close();
    }
  });

  test('of a nested write that fails are forgotten, those of the write around it kept', () => {
    try {
      const { store } = index;
      store.writeTransaction(() => {
        insertRow('outer');
        assert.throws(
          () =>
            store.writeTransaction(() => {
              insertRow('inner');
              throw new Error('the inner write failed');
            }),
          /the inner write failed/,
        );
      });
      assertCountsMatch(file);
      assert.equal(countsOf(file).stored.length, countsOf(file).recounted.length);
    } finally {
      index.close();
    }
  });

  test('a document written outside a write transaction is refused, the file unchanged', () => {
    index.close();
    const db = new Database(file);
    registerTemplateFunctions(db);
    try {
      assert.throws(
        () =>
          db
            .prepare(
              `INSERT INTO documents (url, title, description, headings, body, content_size, last_modified,
                 doctype, content_hash) VALUES ('https://docs.example/x', 't', '', '', 'b', 0, 0, 'html', x'00')`,
            )
            .run(),
        /inside a write transaction/,
      );
      assert.equal(db.prepare('SELECT count(*) FROM documents').pluck().get(), 0);
    } finally {
      db.close();
    }
  });

  test('a file whose triggers wrote the counts (format 12) is given the new ones and counts on', () => {
    try {
      index.writer.upsert(
        Array.from({ length: 6 }, (_, n) => page(SITES[0]!, `p${n}`, `topic${n}`)),
        FEED,
      );
    } finally {
      index.close();
    }
    const db = new Database(file);
    undoFormat15(db);
    registerTemplateFunctions(db);
    db.exec(`
      DROP TRIGGER documents_count_blocks;
      CREATE TRIGGER documents_count_blocks AFTER INSERT ON documents BEGIN
        INSERT INTO template_hosts (host, pages) VALUES (page_host(new.url), 1)
          ON CONFLICT (host) DO UPDATE SET pages = pages + 1;
        INSERT INTO template_blocks (host_id, block, pages)
          SELECT (SELECT id FROM template_hosts WHERE host = page_host(new.url)), block, 1
          FROM body_blocks(new.title, new.body, new.template) WHERE true
          ON CONFLICT (host_id, block) DO UPDATE SET pages = pages + 1;
      END;
      UPDATE index_meta SET value = '12' WHERE key = 'schema';
    `);
    db.close();
    index = new SearchIndex(file);
    try {
      const reader = new Database(file, { readonly: true });
      try {
        assert.equal(reader.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get(), '17');
        const trigger = reader
          .prepare("SELECT sql FROM sqlite_master WHERE name = 'documents_count_blocks'")
          .pluck()
          .get() as string;
        assert.match(trigger, /count_template_blocks/);
      } finally {
        reader.close();
      }
      index.writer.upsert([page(SITES[0]!, 'p6', 'after the upgrade')], FEED);
      assertCountsMatch(file);
    } finally {
      index.close();
    }
  });
});
