/**
 * Japanese input in the widget, in real Chromium against a real `kumo serve`: an IME composition
 * driven through the DevTools protocol sends no suggest request while it lasts, the Enter that
 * confirms it does not submit, and the composed text is used when it ends; Japanese UI texts on
 * a `lang="ja"` page; half-width kana finds the full-width pages (docs/reference/widget.md, What a
 * visitor gets).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pollUntil, sleep } from '../support/service-harness.js';
import { imeSession } from '../support/widget-driver.js';
import { widgetSuite } from '../support/widget-suite.js';

const suite = widgetSuite();
/** Longer than the widget's 60 ms debounce, so a request would have gone out. */
const PAUSE_MS = 200;

describe('widget Japanese input', () => {
  test('no suggest request during a composition; its Enter does not submit; the result is used', async () => {
    const { context, page, widget, log } = await suite.open('ja');
    await widget.input.click();
    const ime = await imeSession(context, page);
    for (const reading of ['と', 'とま', 'とまと', 'トマト']) {
      await ime.compose(reading);
      await sleep(PAUSE_MS);
    }
    assert.equal(await widget.input.inputValue(), 'トマト', 'the marked text is in the box');
    assert.deepEqual(
      log.of('suggest').map((request) => request.q),
      [],
      'no suggest request while composing',
    );

    // The Enter that confirms the conversion reaches the page as keyCode 229 while composing.
    await ime.enterWhileComposing();
    await ime.commit('トマト');
    await sleep(PAUSE_MS);
    assert.deepEqual(log.of('search'), [], 'the confirming Enter did not submit');
    assert.equal(new URL(page.url()).searchParams.get('kumo_q'), null);
    assert.equal(await widget.part('result').count(), 0);

    // The composed text is used: suggestions for it are requested once the composition ends.
    await pollUntil('a suggest request for the composed text', () =>
      log.of('suggest').some((request) => request.q === 'トマト') ? true : undefined,
    );
    assert.ok(
      log.of('suggest').every((request) => request.q === 'トマト'),
      JSON.stringify(log.of('suggest').map((r) => r.q)),
    );

    // Safari's order: compositionend first, then the Enter keydown with keyCode 229. Still no submit.
    await ime.enterWhileComposing();
    await sleep(PAUSE_MS);
    assert.deepEqual(log.of('search'), [], 'a keyCode 229 Enter after the composition did not submit');

    // A real Enter afterwards searches, and the page speaks Japanese.
    const expected = await suite.site.search({ q: 'トマト' });
    await widget.input.press('Enter');
    assert.equal(await widget.settled(), 'ready');
    assert.equal(log.of('search').filter((request) => request.q === 'トマト').length, 1);
    assert.match(
      await widget.statusText(),
      new RegExp(`「トマト」の検索結果\\s*${expected.organic.hits}\\s*件`),
    );
    await ime.detach();
  });

  test('typing into an ongoing composition sends nothing until it is committed (repeated updates)', async () => {
    const { context, page, widget, log } = await suite.open('ja');
    await widget.input.click();
    await widget.input.pressSequentially('kyo');
    await pollUntil('suggestions for the Latin prefix', () =>
      log.of('suggest').length > 0 ? true : undefined,
    );
    await widget.input.fill('');
    const sent = log.of('suggest').length;
    const ime = await imeSession(context, page);
    for (const reading of ['き', 'きょ', 'きょう', 'きょうと', '京都']) {
      await ime.compose(reading);
      await sleep(PAUSE_MS);
    }
    assert.equal(log.of('suggest').length, sent, 'no request during the composition');
    await ime.commit('京都');
    await pollUntil('a suggest request for 京都', () =>
      log.of('suggest').some((request) => request.q === '京都') ? true : undefined,
    );
    await widget.input.press('Enter');
    assert.equal(await widget.settled(), 'ready');
    const expected = await suite.site.search({ q: '京都' });
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()),
      expected.organic.docs.map((doc) => doc.title),
    );
    await ime.detach();
  });

  test('half-width ｶﾀｶﾅ finds the full-width pages, with Japanese highlights', async () => {
    const { widget } = await suite.open('ja');
    const fullWidth = await suite.site.search({ q: 'トマト' });
    assert.equal(await widget.search('ﾄﾏﾄ'), 'ready');
    assert.deepEqual(
      (await widget.resultTitles()).map((title) => title.trim()).sort(),
      fullWidth.organic.docs.map((doc) => doc.title).sort(),
    );
    const marks = await widget.part('mark').allTextContents();
    assert.ok(marks.length > 0 && marks.every((mark) => mark === 'トマト'), JSON.stringify(marks));
  });

  test('the lang="ja" page gets Japanese texts (placeholder, empty state)', async () => {
    const { widget } = await suite.open('ja');
    const placeholder = (await widget.input.getAttribute('placeholder')) ?? '';
    assert.match(placeholder, /[\u3040-\u30ff\u4e00-\u9fff]/, `placeholder: ${placeholder}`);
    assert.equal(await widget.search('存在しない語句ぬぬぬ'), 'empty');
    const empty = (await widget.part('empty').textContent()) ?? '';
    assert.match(empty, /[\u3040-\u30ff\u4e00-\u9fff]/, empty);
    assert.doesNotMatch(empty, /No results/i);
  });
});
