/**
 * The analysis threads of indexing under their limits (docs/design/search-engine.md, Memory of indexing):
 * a page that runs its thread out of memory or time costs that page at most, never its batch,
 * and the pool goes on analyzing in threads.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { type AnalysisLimits, AnalysisPool } from '../../src/search/analysis-pool.js';
import type { HtmlPage } from '../../src/search/html-page.js';

const SITE = 'http://127.0.0.1:9';

/** An HTML page of `words` distinct-looking words: about 8 bytes of text per word. */
function page(name: string, words: number): HtmlPage {
  const text = Array.from({ length: words }, (_, at) => `w${(at * 7919) % 100_003}x`).join(' ');
  const html = Buffer.from(`<html><head><title>${name}</title></head><body><p>${text}</p></body></html>`);
  return {
    url: `${SITE}/${name}.html`,
    lastModified: 0,
    contentSize: html.byteLength,
    html,
    rendered: true,
    contentType: 'text/html',
    selectors: {},
  };
}

const pools: AnalysisPool[] = [];
function poolOf(limits: AnalysisLimits): AnalysisPool {
  const pool = new AnalysisPool(limits);
  pools.push(pool);
  return pool;
}

after(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

const urlsOf = (documents: readonly { url: string }[]) => documents.map((document) => document.url);
const ORDINARY = ['alpha', 'bravo', 'charlie'].map((name) => page(name, 50));

describe('analysis threads under their limits', () => {
  test('a page beyond every heap is left out with the reason; its batch and the next are analyzed', async () => {
    const pool = poolOf({ threads: 1, heapMb: 24, largePageHeapMb: 32, batchTimeoutMs: 60_000 });
    // 8 MB of text: its tokens alone take several times that.
    const huge = page('huge', 1_000_000);
    const batch = await pool.analyze([ORDINARY[0]!, huge, ORDINARY[1]!, ORDINARY[2]!]);

    assert.deepEqual(urlsOf(batch.documents), urlsOf(ORDINARY));
    assert.equal(batch.analyzed.length, 3);
    assert.deepEqual(
      batch.failed.map((failed) => failed.url),
      [huge.url],
    );
    assert.match(batch.failed[0]!.reason, /needs more than the 32 MB .*KUMO_INDEX_MEMORY_MB/);
    // The batch's thread, the half holding the page, the page alone, the large-page thread.
    assert.equal(pool.threadsLost, 4);

    const next = await pool.analyze([page('delta', 50)]);
    assert.deepEqual(urlsOf(next.documents), [`${SITE}/delta.html`]);
    assert.deepEqual(next.failed, []);
    assert.equal(pool.threadsLost, 4, 'the next batch is analyzed in a new thread of the pool');
  });

  test('a page too large for its thread is analyzed alone in the large-page thread, in its place', async () => {
    const pool = poolOf({ threads: 1, heapMb: 24, largePageHeapMb: 512, batchTimeoutMs: 60_000 });
    const large = page('large', 250_000);
    const batch = await pool.analyze([ORDINARY[0]!, large, ORDINARY[1]!, ORDINARY[2]!]);

    assert.deepEqual(urlsOf(batch.documents), [
      ORDINARY[0]!.url,
      large.url,
      ORDINARY[1]!.url,
      ORDINARY[2]!.url,
    ]);
    assert.deepEqual(batch.failed, []);
    const largeText = batch.documents[1]!.body;
    assert.ok(largeText.length > 1_500_000, `the whole text is indexed (${largeText.length} chars)`);
    assert.equal(batch.analyzed.length, 4);
    assert.equal(pool.threadsLost, 3);
  });

  test('a large page runs alone: the pool stops its threads first and starts them again after', async () => {
    const pool = poolOf({ threads: 2, heapMb: 24, largePageHeapMb: 96, batchTimeoutMs: 60_000 });
    const large = page('large', 250_000);
    let aloneWhileLarge = true;
    let sawLarge = false;
    const watch = setInterval(() => {
      if (!pool.analyzingLargePage) return;
      sawLarge = true;
      if (pool.threadsAlive !== 1) aloneWhileLarge = false;
    }, 2);
    const batches = await Promise.all([
      pool.analyze([large]),
      ...ORDINARY.map((ordinary) => pool.analyze([ordinary])),
    ]);
    clearInterval(watch);

    assert.deepEqual(
      batches.map((batch) => urlsOf(batch.documents)),
      [[large.url], ...ORDINARY.map((ordinary) => [ordinary.url])],
    );
    assert.ok(sawLarge, 'the page went to the large-page thread');
    assert.ok(aloneWhileLarge, 'no other analysis thread was alive while it ran');
    const next = await pool.analyze([page('echo', 50)]);
    assert.deepEqual(urlsOf(next.documents), [`${SITE}/echo.html`]);
    await pool.close();
    assert.equal(pool.threadsAlive, 0, 'closed, the pool has waited for every thread to end');
  });

  test('a source listing of 11 MB of highlighted tokens is analyzed in an ordinary thread', async () => {
    const pool = poolOf({ threads: 1, heapMb: 40, largePageHeapMb: 40, batchTimeoutMs: 60_000 });
    // Each token in an element of its own, as a syntax highlighter writes it: 800,000 text nodes
    // (the tokens and the spaces between), which took more than 96 MB of heap as an object each.
    const spans = Array.from(
      { length: 400_000 },
      (_, at) => `<span class="k">t${at % 5000}</span>${at % 8 === 7 ? '\n' : ' '}`,
    );
    const html = Buffer.from(`<html><body><main><pre>${spans.join('')}</pre></main></body></html>`);
    const listing: HtmlPage = { ...page('listing', 0), html, contentSize: html.byteLength };

    const batch = await pool.analyze([listing]);

    assert.deepEqual(batch.failed, []);
    assert.equal(pool.threadsLost, 0);
    const body = batch.documents[0]!.body;
    assert.equal(body.split('\n').length, 50_000);
    assert.equal(body.split(/\s/).length, 400_000);
    assert.ok(body.startsWith('t0 t1 t2 t3 t4 t5 t6 t7\nt8 t9'), body.slice(0, 40));
  });

  test('a page whose analysis outlasts the time limit is left out; the others of its batch are not', async () => {
    const pool = poolOf({ threads: 1, heapMb: 2048, largePageHeapMb: 2048, batchTimeoutMs: 1_000 });
    // 16 MB of text: several seconds of analysis.
    const slow = page('slow', 2_000_000);
    const batch = await pool.analyze([ORDINARY[0]!, slow, ORDINARY[1]!]);

    assert.deepEqual(urlsOf(batch.documents), [ORDINARY[0]!.url, ORDINARY[1]!.url]);
    assert.deepEqual(batch.failed, [{ url: slow.url, reason: 'its analysis took longer than 1 s' }]);

    const next = await pool.analyze([ORDINARY[2]!]);
    assert.deepEqual(urlsOf(next.documents), [ORDINARY[2]!.url]);
  });
});
