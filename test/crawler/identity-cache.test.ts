/**
 * The bounded set of URL identities a run has discovered (src/crawler/identity-cache.ts): it
 * answers for every identity it was given, never for one it was not (a false "known" would leave
 * a page uncrawled), and starts over once full, so its memory stays fixed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdentityCache } from '../../src/crawler/identity-cache.js';

const identityOf = (index: number) => `http://127.0.0.1:8080/p/${index}.html`;

test('every identity added is known, and no other', () => {
  const cache = new IdentityCache(200_000);
  for (let index = 0; index < 200_000; index++) cache.add(identityOf(index));
  for (let index = 0; index < 200_000; index++) assert.equal(cache.has(identityOf(index)), true);
  let falseHits = 0;
  for (let index = 200_000; index < 1_200_000; index++) if (cache.has(identityOf(index))) falseHits++;
  assert.equal(falseHits, 0, 'a million identities never added');
  assert.equal(cache.has(''), false);
  assert.equal(cache.has('http://127.0.0.1:8080/p/1.htm'), false);
});

test('identities that differ only in non-ASCII characters stay apart', () => {
  const cache = new IdentityCache();
  cache.add('https://例え.jp/検索?q=東京');
  assert.equal(cache.has('https://例え.jp/検索?q=東京'), true);
  assert.equal(cache.has('https://例え.jp/検索?q=京都'), false);
});

test('a full set starts over: the newest identity is kept, the older ones forgotten', () => {
  const cache = new IdentityCache(1000);
  for (let index = 0; index < 1000; index++) cache.add(identityOf(index));
  assert.equal(cache.has(identityOf(999)), true);
  cache.add(identityOf(5000));
  assert.equal(cache.has(identityOf(5000)), true);
  assert.equal(cache.has(identityOf(0)), false);
  assert.equal(cache.has(identityOf(999)), false);
});

test('adding an identity twice takes one place', () => {
  const cache = new IdentityCache(3);
  for (let round = 0; round < 10; round++) cache.add(identityOf(1));
  cache.add(identityOf(2));
  cache.add(identityOf(3));
  assert.equal(cache.has(identityOf(1)), true, 'three distinct identities fit a set of three');
});
