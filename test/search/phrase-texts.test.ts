/**
 * The phrase texts of a suggester's counter (docs/design/search-engine.md, Suggest): each phrase
 * gets one id for good, whatever its script and however many phrases came before it, and reads
 * back as it was given.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PhraseTexts } from '../../src/search/site/phrase-texts.js';

describe('phrase texts', () => {
  test('a phrase seen again has its first id, and reads back whole', () => {
    const texts = new PhraseTexts();
    const phrases = ['create index', '仮想ホストの設定', 'emoji 🍣 sushi', '', 'x'.repeat(10_000), 'ｶﾀｶﾅ'];
    const added: number[] = [];
    const ids = phrases.map((phrase) => texts.idOf(phrase, (id) => added.push(id)));
    assert.deepEqual(ids, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(added, ids);
    assert.deepEqual(
      phrases.map((phrase) => texts.idOf(phrase, () => assert.fail(`${phrase} added twice`))),
      ids,
    );
    assert.deepEqual(
      ids.map((id) => texts.textOf(id)),
      phrases,
    );
    assert.equal(texts.lengthOf(1), 8);
    assert.equal(texts.charCodeAt(0, 6), ' '.charCodeAt(0));
  });

  test('ids stay as the table grows past many phrases', () => {
    const texts = new PhraseTexts();
    const count = 50_000;
    for (let n = 0; n < count; n += 1) assert.equal(texts.idOf(`phrase ${n}`), n);
    assert.equal(texts.size, count);
    // Every one, those at the arrays' sizes (512, 1,024, …) included, is found again.
    for (let n = 0; n < count; n += 1) {
      if (texts.idOf(`phrase ${n}`) !== n) assert.fail(`phrase ${n} has id ${texts.idOf(`phrase ${n}`)}`);
      if (texts.textOf(n) !== `phrase ${n}`) assert.fail(`id ${n} reads ${texts.textOf(n)}`);
    }
  });
});
