/**
 * Run-level atomic index updates of a scheduled crawl: a run's new and changed pages are staged
 * while searches (in this process and in another connection to the same file) keep seeing the
 * index as it was, then the whole run is applied at once with its removals; a discarded or
 * abandoned staging leaves no trace. applyRunToIndex is exercised with real crawl bundles.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { END_OF_ARCHIVE, encodeTarFiles } from '../../src/artifacts/index.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { applyRunToIndex, type RunPageOutcomes } from '../../src/search/run-index-update.js';
import { SearchIndex } from '../../src/search/search-index.js';
import type { StagedRunEnd } from '../../src/search/search-index-types.js';
import { type BundlePage, writeBundle } from '../support/crawl-bundle.js';
import { rankedSearch } from '../support/ranked-search.js';

const SITE = 'https://www.example.com';
/** In every document of these tests: counts every live document once. */
const EVERYWHERE = 'sitewide';

/** The feed of the scheduled setting whose runs these tests stage. */
const SETTING = 'setting:1';
/** Applies a run that removes nothing. */
const NOTHING_REMOVED: StagedRunEnd = { feed: SETTING, gone: [], release: () => false };
/** Applies a run that saw these URLs gone (404/410). */
const removing = (...gone: string[]): StagedRunEnd => ({ feed: SETTING, gone, release: () => false });

const doc = (slug: string, words: string): IndexedDocument => ({
  url: `${SITE}/${slug}.html`,
  title: `Page ${slug}`,
  description: '',
  body: `${words} ${EVERYWHERE}`,
});

const folders: string[] = [];
const newFolder = (): string => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-staged-'));
  folders.push(folder);
  return folder;
};
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** URLs found for a query, in rank order. */
const urls = (index: SearchIndex, query: string): string[] =>
  rankedSearch(index, query, 100).docs.map((d) => d.url);
const sortedUrls = (index: SearchIndex, query: string): string[] => urls(index, query).sort();

/** What a user sees of an index: the answers to some queries and the number of documents. */
function viewOf(
  index: SearchIndex,
  queries: readonly string[],
): { answers: Record<string, string[]>; count: number } {
  const answers = Object.fromEntries(queries.map((query) => [query, urls(index, query)]));
  // documentCount reads the last loaded view; the searches above picked up other connections' commits.
  return { answers, count: index.documentCount };
}

describe('SearchIndex staging', () => {
  let file: string;
  let index: SearchIndex;
  let other: SearchIndex;
  const kept = doc('kept', 'marmot');
  const changedOld = doc('changed', 'walrus');
  const changedNew = doc('changed', 'narwhal');
  const added = doc('added', 'pelican');

  beforeEach(() => {
    file = path.join(newFolder(), 'service.db');
    index = new SearchIndex(file);
    index.writer.upsert([kept, changedOld], SETTING);
    // Another connection to the same file, as kumo serve has while kumo index writes.
    other = new SearchIndex(file);
  });
  afterEach(() => {
    index.close();
    other.close();
  });

  test('staged new and changed documents are invisible on both connections until applyStaged', () => {
    const staged = index.writer.stage('run-1', [changedNew, added]);
    assert.deepEqual(staged, { added: 1, updated: 1, unchanged: 0 });

    for (const [name, view] of [
      ['staging connection', index],
      ['other connection', other],
    ] as const) {
      assert.deepEqual(urls(view, 'narwhal'), [], `${name}: changed text is not visible yet`);
      assert.deepEqual(urls(view, 'pelican'), [], `${name}: new document is not visible yet`);
      assert.deepEqual(urls(view, 'walrus'), [changedOld.url], `${name}: old text is still found`);
      assert.equal(rankedSearch(view, EVERYWHERE).hits, 2, name);
      assert.equal(view.documentCount, 2, name);
      // The text shown for a hit is the old one until the run is applied.
      const hit = rankedSearch(view, 'walrus').docs[0]!;
      assert.match(view.searcher().document(hit.id)!.body, /walrus/);
    }

    assert.equal(index.writer.applyStaged('run-1', NOTHING_REMOVED), 0);

    for (const [name, view] of [
      ['staging connection', index],
      ['other connection', other],
    ] as const) {
      assert.deepEqual(urls(view, 'narwhal'), [changedNew.url], name);
      assert.deepEqual(urls(view, 'walrus'), [], `${name}: replaced text is no longer found`);
      assert.deepEqual(urls(view, 'pelican'), [added.url], name);
      assert.deepEqual(urls(view, 'marmot'), [kept.url], name);
      // One hit per document: the replaced version does not linger beside the new one.
      assert.deepEqual(sortedUrls(view, EVERYWHERE), [added.url, changedNew.url, kept.url].sort(), name);
      assert.equal(rankedSearch(view, EVERYWHERE).hits, 3, name);
      assert.equal(view.documentCount, 3, name);
      const hit = rankedSearch(view, 'narwhal').docs[0]!;
      assert.match(view.searcher().document(hit.id)!.body, /narwhal/);
      assert.doesNotMatch(view.searcher().document(hit.id)!.body, /walrus/);
    }
  });

  test('unchanged documents are counted unchanged and not re-indexed', () => {
    const segmentsBefore = index.searcher().snapshot.segments.map((loaded) => loaded.segment.id);
    const idBefore = rankedSearch(index, 'marmot').docs[0]!.id;

    assert.deepEqual(index.writer.stage('run-1', [kept, changedOld]), { added: 0, updated: 0, unchanged: 2 });
    assert.equal(index.writer.applyStaged('run-1', NOTHING_REMOVED), 0);
    assert.deepEqual(
      index.searcher().snapshot.segments.map((loaded) => loaded.segment.id),
      segmentsBefore,
      'no segment was written for a run without changes',
    );
    assert.equal(rankedSearch(index, 'marmot').docs[0]!.id, idBefore);

    // Mixed: only the changed one is staged.
    assert.deepEqual(index.writer.stage('run-2', [kept, changedNew]), { added: 0, updated: 1, unchanged: 1 });
    index.writer.applyStaged('run-2', NOTHING_REMOVED);
    assert.equal(rankedSearch(index, 'marmot').docs[0]!.id, idBefore);
    assert.deepEqual(urls(index, 'narwhal'), [changedNew.url]);
    assert.equal(index.documentCount, 2);
  });

  test('applyStaged removes the visible documents `gone` names, never one the run itself staged', () => {
    const third = doc('third', 'bison');
    index.writer.upsert([third], SETTING);
    index.writer.stage('run-1', [changedNew, added]);

    const asked: string[] = [];
    const removed = index.writer.applyStaged('run-1', {
      feed: SETTING,
      gone: [kept.url, changedNew.url, added.url],
      release: (url) => {
        asked.push(url);
        return false;
      },
    });

    assert.equal(removed, 1, 'only kept.html was visible, named and not part of the run');
    assert.deepEqual(
      asked,
      [third.url],
      'only a claimed document the run did not reach is offered for release',
    );
    assert.deepEqual(urls(index, 'marmot'), []);
    assert.deepEqual(urls(index, 'bison'), [third.url], 'a document not named stays');
    assert.deepEqual(urls(index, 'narwhal'), [changedNew.url], 'a document changed by the run stays');
    assert.deepEqual(urls(index, 'pelican'), [added.url], 'a document added by the run stays');
    assert.deepEqual(sortedUrls(other, EVERYWHERE), [added.url, changedNew.url, third.url].sort());
    assert.equal(index.documentCount, 3);
    assert.equal(other.documentCount, 3);
  });

  test('a page the run saw gone is removed only when no other feed put it there', () => {
    const bundled = doc('bundled', 'ocelot');
    const legacy = doc('legacy', 'quokka');
    const otherSetting = doc('other-setting', 'ibex');
    index.writer.upsert([bundled], 'bundle:/crawls/site');
    index.writer.upsert([bundled], SETTING);
    index.writer.upsert([legacy], 'legacy');
    index.writer.upsert([otherSetting], 'setting:2');

    const removed = index.writer.applyStaged('run-1', removing(bundled.url, legacy.url, otherSetting.url));

    assert.equal(removed, 1, 'only the page no other feed holds (the legacy one) is removed');
    assert.deepEqual(urls(index, 'quokka'), []);
    assert.deepEqual(urls(index, 'ocelot'), [bundled.url], "a bundle's page stays");
    assert.deepEqual(
      index.writer.feedsOf(bundled.url),
      ['bundle:/crawls/site'],
      "the setting's claim is let go",
    );
    assert.deepEqual(urls(index, 'ibex'), [otherSetting.url], "another setting's page stays");
    assert.deepEqual(index.writer.feedsOf(otherSetting.url), ['setting:2']);
  });

  test('discardStaged leaves the index exactly as before; the run key can be staged again', () => {
    const queries = ['walrus', 'narwhal', 'pelican', 'marmot', EVERYWHERE];
    const before = viewOf(index, queries);
    const changedId = rankedSearch(index, 'walrus').docs[0]!.id;

    index.writer.stage('run-1', [changedNew, added]);
    index.writer.discardStaged('run-1');

    assert.deepEqual(viewOf(index, queries), before);
    assert.deepEqual(viewOf(other, queries), before);
    assert.match(index.searcher().document(changedId)!.body, /walrus/);
    assert.equal(index.store.documentIdOf(added.url), undefined, 'the discarded new document is gone');
    // Applying a discarded key changes nothing either.
    assert.equal(index.writer.applyStaged('run-1', NOTHING_REMOVED), 0);
    assert.deepEqual(viewOf(index, queries), before);

    assert.deepEqual(index.writer.stage('run-1', [changedNew, added]), {
      added: 1,
      updated: 1,
      unchanged: 0,
    });
    index.writer.applyStaged('run-1', NOTHING_REMOVED);
    assert.deepEqual(urls(index, 'narwhal'), [changedNew.url]);
    assert.deepEqual(urls(index, 'pelican'), [added.url]);
    assert.deepEqual(urls(other, 'walrus'), []);
    assert.equal(rankedSearch(other, EVERYWHERE).hits, 3);
    assert.equal(index.documentCount, 3);
  });

  test('an applied run persists: an index reopened from the file answers the same', () => {
    index.writer.stage('run-1', [changedNew, added]);
    index.writer.applyStaged('run-1', removing(kept.url));
    const queries = ['walrus', 'narwhal', 'pelican', 'marmot', EVERYWHERE];
    const applied = viewOf(index, queries);
    assert.deepEqual([...applied.answers[EVERYWHERE]!].sort(), [added.url, changedNew.url].sort());

    index.close();
    other.close();
    index = new SearchIndex(file);
    other = new SearchIndex(file);
    assert.deepEqual(viewOf(index, queries), applied);
  });

  test('a staging left behind (closed without apply) reopens showing the old state', () => {
    const queries = ['walrus', 'narwhal', 'pelican', 'marmot', EVERYWHERE];
    const before = viewOf(index, queries);
    index.writer.stage('run-1', [changedNew, added]);
    index.close();
    other.close();

    index = new SearchIndex(file);
    other = new SearchIndex(file);
    assert.deepEqual(viewOf(index, queries), before);
    assert.equal(index.documentCount, 2);

    // The interrupted run, retried under its key, discards its leftovers first (applyRunToIndex).
    index.writer.discardStaged('run-1');
    assert.deepEqual(index.writer.stage('run-1', [changedNew, added]), {
      added: 1,
      updated: 1,
      unchanged: 0,
    });
    index.writer.applyStaged('run-1', NOTHING_REMOVED);
    assert.deepEqual(sortedUrls(other, EVERYWHERE), [added.url, changedNew.url, kept.url].sort());
  });

  test('a later run brings a page that a run left staged and never applied: the page becomes searchable', () => {
    index.writer.stage('run-1', [added]);
    index.close();
    other.close();
    index = new SearchIndex(file);
    other = new SearchIndex(file);

    // run-1 never comes back (its setting was deleted before the restart): run-2 finds the same page.
    const staged = index.writer.stage('run-2', [kept, changedOld, added]);
    index.writer.applyStaged('run-2', NOTHING_REMOVED);
    assert.deepEqual(urls(index, 'pelican'), [added.url], `stage answered ${JSON.stringify(staged)}`);
    assert.equal(index.documentCount, 3);
  });

  test('kumo index writes a page while a run has it staged: after the run is applied searches still work', () => {
    index.writer.stage('run-1', [added]);
    other.writer.upsert([{ ...added, body: `pelican written directly ${EVERYWHERE}` }], 'bundle:direct');
    index.writer.applyStaged('run-1', NOTHING_REMOVED);
    for (const view of [index, other]) {
      assert.deepEqual(urls(view, 'pelican'), [added.url]);
      assert.equal(rankedSearch(view, EVERYWHERE).hits, 3);
    }
  });

  test('a page one run changes while another run removes it stays removed, and searches still work', () => {
    // Two settings feed this index: run-2 stages a new version of a page, run-1 removes that page.
    index.writer.stage('run-2', [changedNew]);
    index.writer.stage('run-1', []);
    index.writer.applyStaged('run-1', removing(changedOld.url));
    index.writer.applyStaged('run-2', NOTHING_REMOVED);
    for (const view of [index, other]) {
      assert.deepEqual(urls(view, 'narwhal'), []);
      assert.deepEqual(urls(view, 'walrus'), []);
      assert.deepEqual(sortedUrls(view, EVERYWHERE), [kept.url]);
    }
    index.close();
    index = new SearchIndex(file);
    assert.deepEqual(urls(index, 'narwhal'), []);
  });

  test('a page added after a page a run had staged was removed keeps its own text when the run is applied', () => {
    // changedOld holds the highest id: a new page must not take it while run-2 still stages it.
    index.writer.stage('run-2', [changedNew]);
    index.writer.remove([changedOld.url]);
    const newcomer = doc('newcomer', 'ocelot');
    index.writer.upsert([newcomer], SETTING);
    index.writer.applyStaged('run-2', NOTHING_REMOVED);
    for (const view of [index, other]) {
      assert.deepEqual(urls(view, 'ocelot'), [newcomer.url]);
      assert.deepEqual(urls(view, 'narwhal'), []);
      assert.deepEqual(sortedUrls(view, EVERYWHERE), [kept.url, newcomer.url].sort());
    }
    const stored = index.searcher().document(index.store.documentIdOf(newcomer.url)!)!;
    assert.equal(stored.body, newcomer.body);
  });

  test('many runs in a row (merges included) keep one hit per page on both connections', () => {
    for (let run = 1; run <= 24; run += 1) {
      const version = doc('changed', `walrus version${run}`);
      const fresh = doc(`fresh${run}`, `pelican batch${run}`);
      const result = index.writer.stage(`run-${run}`, [kept, version, fresh]);
      assert.deepEqual(result, { added: 1, updated: 1, unchanged: 1 }, `run ${run}`);
      // Each run removes the previous run's fresh page.
      index.writer.applyStaged(`run-${run}`, removing(`${SITE}/fresh${run - 1}.html`));
      for (const view of [index, other]) {
        assert.deepEqual(urls(view, 'walrus'), [changedOld.url], `run ${run}`);
        assert.deepEqual(urls(view, `version${run}`), [changedOld.url], `run ${run}`);
        assert.deepEqual(urls(view, `version${run - 1}`), [], `run ${run}`);
        assert.deepEqual(urls(view, 'pelican'), [fresh.url], `run ${run}`);
        assert.equal(rankedSearch(view, EVERYWHERE).hits, 3, `run ${run}`);
        assert.equal(view.documentCount, 3, `run ${run}`);
      }
    }
    index.close();
    index = new SearchIndex(file);
    assert.deepEqual(
      sortedUrls(index, EVERYWHERE),
      [changedOld.url, `${SITE}/fresh24.html`, kept.url].sort(),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// applyRunToIndex with real bundles

const html = (title: string, body: string, head = ''): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head>` +
  `<body><h1>${title}</h1><p>${body} ${EVERYWHERE}</p></body></html>`;

const URLS = {
  added: `${SITE}/added.html`,
  changed: `${SITE}/changed.html`,
  noindex: `${SITE}/private.html`,
  failed: `${SITE}/flaky.html`,
  gone: `${SITE}/removed.html`,
  unreached: `${SITE}/unreached.html`,
  otherSite: 'https://blog.example.org/post.html',
  redirected: `${SITE}/old-address.html`,
  redirectTarget: `${SITE}/new-address.html`,
};

/** The bundle of one run: a new page, a changed one, a noindex one, a 500 and a 404, a redirect. */
const RUN_PAGES: BundlePage[] = [
  { url: URLS.added, status: 200, html: html('Added page', 'quokka') },
  { url: URLS.changed, status: 200, html: html('Changed page', 'narwhal') },
  {
    url: URLS.noindex,
    status: 200,
    html: html('Private page', 'ibex', '<meta name="robots" content="noindex">'),
  },
  { url: URLS.failed, status: 500, html: '<html><body>lynx server error</body></html>' },
  { url: URLS.gone, status: 404, html: '<html><body>tapir not found</body></html>' },
  { url: URLS.redirected, lastUrl: URLS.redirectTarget, status: 200, html: html('Moved page', 'gecko') },
];

/** What the index held before the run: each of these was found by the run in some way, or not at all. */
const PREVIOUS: IndexedDocument[] = [
  { url: URLS.changed, title: 'Changed page', description: '', body: `walrus ${EVERYWHERE}` },
  { url: URLS.noindex, title: 'Private page', description: '', body: `ibex ${EVERYWHERE}` },
  { url: URLS.failed, title: 'Flaky page', description: '', body: `lynx ${EVERYWHERE}` },
  { url: URLS.gone, title: 'Removed page', description: '', body: `tapir ${EVERYWHERE}` },
  { url: URLS.unreached, title: 'Unreached page', description: '', body: `okapi ${EVERYWHERE}` },
];

/**
 * Pages other feeds put into the same index, none of which the run reaches: whatever their URL
 * (the crawled site's own host included), they are not this setting's to remove.
 */
const OTHER_FEEDS: { feed: string; document: IndexedDocument }[] = [
  {
    feed: 'setting:2',
    document: { url: URLS.otherSite, title: 'Another site', description: '', body: 'wombat' },
  },
  {
    feed: 'bundle:/srv/crawls/manual',
    document: { url: `${SITE}/manual.html`, title: 'Manual', description: '', body: 'manatee' },
  },
  {
    feed: 'run:3',
    document: { url: `${SITE}/notice.html`, title: 'Notice', description: '', body: 'heron' },
  },
];
/** A page this setting and a bundle both indexed. */
const SHARED: IndexedDocument = {
  url: `${SITE}/shared.html`,
  title: 'Shared',
  description: '',
  body: 'bittern',
};

const outcomes = (complete: boolean): RunPageOutcomes => ({
  gone: new Set([URLS.gone]),
  failed: new Set([URLS.failed]),
  complete,
});

describe('applyRunToIndex', () => {
  let folder: string;
  let file: string;
  let bundle: string;
  let index: SearchIndex;

  beforeEach(() => {
    folder = newFolder();
    file = path.join(folder, 'service.db');
    bundle = path.join(folder, 'crawl_objects.tar.gz');
    writeBundle(bundle, RUN_PAGES);
    index = new SearchIndex(file);
    // An earlier run of the setting, then the other feeds.
    index.writer.stage('run-6', [...PREVIOUS, SHARED]);
    index.writer.applyStaged('run-6', NOTHING_REMOVED);
    for (const { feed, document } of OTHER_FEEDS) index.writer.upsert([document], feed);
    index.writer.upsert([SHARED], 'bundle:/srv/crawls/shared');
  });
  afterEach(() => index.close());

  test('a complete run: new pages searchable, pages it did not reach removed unless their fetch failed', async () => {
    const summary = await applyRunToIndex(index, 'run-7', SETTING, bundle, outcomes(true));

    assert.deepEqual(
      { added: summary.added, updated: summary.updated, unchanged: summary.unchanged },
      { added: 2, updated: 1, unchanged: 0 },
    );
    assert.equal(summary.removed, 3, 'the noindex page, the 404 page and the unreached page');
    assert.deepEqual(urls(index, 'quokka'), [URLS.added]);
    assert.deepEqual(urls(index, 'narwhal'), [URLS.changed]);
    assert.deepEqual(urls(index, 'walrus'), []);
    assert.deepEqual(
      urls(index, 'gecko'),
      [URLS.redirectTarget],
      'a redirected page is indexed at its final URL',
    );
    assert.deepEqual(urls(index, 'ibex'), [], 'a page now marked noindex is removed');
    assert.deepEqual(urls(index, 'tapir'), [], 'a page that answered 404 is removed');
    assert.deepEqual(urls(index, 'okapi'), [], 'a page the complete run did not reach is removed');
    assert.deepEqual(urls(index, 'wombat'), [URLS.otherSite], "another setting's page stays");
    assert.deepEqual(
      urls(index, 'manatee'),
      [`${SITE}/manual.html`],
      "a bundle's page of the same site stays",
    );
    assert.deepEqual(
      urls(index, 'heron'),
      [`${SITE}/notice.html`],
      "an instant run's page of the same site stays",
    );
    assert.deepEqual(urls(index, 'bittern'), [SHARED.url], 'a page a bundle also indexed stays');
    assert.deepEqual(
      index.writer.feedsOf(SHARED.url),
      ['bundle:/srv/crawls/shared'],
      "but the setting's claim is gone",
    );
    assert.deepEqual(index.writer.feedsOf(URLS.added), [SETTING]);
    assert.deepEqual(
      index.writer.feedsOf(URLS.failed),
      [SETTING],
      'a page whose fetch failed keeps its claim',
    );
    assert.deepEqual(
      urls(index, 'lynx'),
      [URLS.failed],
      'a page whose fetch failed keeps its previous version',
    );
    assert.deepEqual(
      sortedUrls(index, EVERYWHERE),
      [URLS.added, URLS.changed, URLS.failed, URLS.redirectTarget].sort(),
    );
    assert.equal(index.documentCount, 8, "the four pages of the run, the other feeds' four pages");

    // The same bundle again: nothing changed, nothing removed, nothing re-indexed.
    const segments = index.searcher().snapshot.segments.map((loaded) => loaded.segment.id);
    const again = await applyRunToIndex(index, 'run-8', SETTING, bundle, outcomes(true));
    assert.deepEqual(
      { added: again.added, updated: again.updated, unchanged: again.unchanged, removed: again.removed },
      { added: 0, updated: 0, unchanged: 3, removed: 0 },
    );
    assert.deepEqual(
      index.searcher().snapshot.segments.map((loaded) => loaded.segment.id),
      segments,
    );
    assert.equal(index.documentCount, 8);
  });

  test('an incomplete run removes only gone and noindex pages', async () => {
    const summary = await applyRunToIndex(index, 'run-7', SETTING, bundle, outcomes(false));

    assert.equal(summary.removed, 2);
    assert.deepEqual(urls(index, 'quokka'), [URLS.added]);
    assert.deepEqual(urls(index, 'narwhal'), [URLS.changed]);
    assert.deepEqual(urls(index, 'ibex'), []);
    assert.deepEqual(urls(index, 'tapir'), []);
    assert.deepEqual(urls(index, 'okapi'), [URLS.unreached], 'a page an incomplete run did not reach stays');
    assert.deepEqual(urls(index, 'lynx'), [URLS.failed]);
    assert.deepEqual(index.writer.feedsOf(URLS.unreached), [SETTING], 'and keeps its claim');
    assert.equal(index.documentCount, 9);
  });

  test('a file that is not a gzip bundle throws and leaves the index untouched', async () => {
    const queries = ['walrus', 'ibex', 'lynx', 'tapir', 'okapi', 'quokka', EVERYWHERE];
    const before = viewOf(index, queries);
    const notGzip = path.join(folder, 'not-a-bundle.tar.gz');
    writeFileSync(notGzip, '<html>this is not a crawl bundle</html>');

    await assert.rejects(applyRunToIndex(index, 'run-7', SETTING, notGzip, outcomes(true)), {
      name: 'BundleReadError',
    });

    assert.deepEqual(viewOf(index, queries), before);
    const reopened = new SearchIndex(file);
    try {
      assert.deepEqual(viewOf(reopened, queries), before);
    } finally {
      reopened.close();
    }
  });

  test('a bundle cut short after some pages throws and leaves the index untouched', async () => {
    const queries = ['walrus', 'narwhal', 'ibex', 'lynx', 'tapir', 'okapi', 'quokka', 'gecko', EVERYWHERE];
    const before = viewOf(index, queries);
    const bytes = gzipSync(
      Buffer.concat([
        encodeTarFiles(
          RUN_PAGES.flatMap((page, i) => [
            {
              name: `page${i}/meta.json`,
              data: Buffer.from(
                JSON.stringify({ url: page.url, last_url: page.lastUrl ?? null, http_status: page.status }),
              ),
              mtimeSeconds: 0,
            },
            { name: `page${i}/source.html`, data: Buffer.from(page.html ?? ''), mtimeSeconds: 0 },
          ]),
        ),
        END_OF_ARCHIVE,
      ]),
    );
    const cut = path.join(folder, 'cut.tar.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));

    let staged = 0;
    await assert.rejects(
      applyRunToIndex(index, 'run-7', SETTING, cut, outcomes(true), {
        onProgress: (totals) => {
          staged = totals.added + totals.updated;
        },
      }),
      { name: 'BundleReadError' },
    );
    assert.ok(staged > 0, 'pages before the cut were staged, then discarded');

    assert.deepEqual(viewOf(index, queries), before);
    assert.equal(index.store.documentIdOf(URLS.added), undefined, 'no staged page is left behind');

    // The next run of the same page still indexes it.
    const summary = await applyRunToIndex(index, 'run-8', SETTING, bundle, outcomes(false));
    assert.equal(summary.added, 2);
    assert.deepEqual(urls(index, 'quokka'), [URLS.added]);
  });
});
