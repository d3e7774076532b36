/**
 * The encryption of stored secrets (src/security/secret-box.ts): AES-256-GCM, a fresh nonce per
 * value, the versioned text form, a value opening only with its key and for its purpose, and the
 * key: KUMO_SECRET_KEY or `<data>/secret-key`, generated once with mode 0600.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ConfigError, loadConfig, dataPaths } from '../../src/config/index.js';
import {
  decodeSecretKey,
  SecretBox,
  SecretKeyMismatchError,
  generateSecretKeyText,
} from '../../src/security/secret-box.js';
import { loadSecretKey } from '../../src/security/index.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-secret-box-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const keyOf = (byte: number) => Buffer.alloc(32, byte);
const SEALED_FORM = /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22,}$/;

test('a sealed value has the v1 form, differs every time, and opens to the plain text', () => {
  const box = new SecretBox(keyOf(1));
  const plain = 'webhook-secret-0123456789 ✓';
  const first = box.seal(plain, 'webhook-secret');
  const second = box.seal(plain, 'webhook-secret');
  assert.match(first, SEALED_FORM);
  assert.notEqual(first, second, 'a random nonce per value');
  assert.notEqual(first.split(':')[1], second.split(':')[1]);
  assert.ok(!first.includes(plain) && !first.includes(Buffer.from(plain).toString('base64url')));
  assert.equal(box.open(first, 'webhook-secret'), plain);
  assert.equal(box.open(second, 'webhook-secret'), plain);
  assert.equal(box.open(box.seal('', 'setting-password'), 'setting-password'), '');
  assert.ok(SecretBox.isSealed(first));
  assert.ok(!SecretBox.isSealed(plain));
  assert.ok(!SecretBox.isSealed('v1:short:value'));
});

test('another key, another purpose or an altered value does not open', () => {
  const box = new SecretBox(keyOf(1));
  const sealed = box.seal('open-sesame', 'setting-password');
  assert.throws(() => new SecretBox(keyOf(2)).open(sealed, 'setting-password'), SecretKeyMismatchError);
  assert.throws(() => box.open(sealed, 'webhook-secret'), SecretKeyMismatchError);
  const [version, nonce, body] = sealed.split(':') as [string, string, string];
  const flipped = `${body.slice(0, 5)}${body[5] === 'A' ? 'B' : 'A'}${body.slice(6)}`;
  assert.throws(() => box.open(`${version}:${nonce}:${flipped}`, 'setting-password'), SecretKeyMismatchError);
  assert.throws(() => box.open('plain text', 'setting-password'), /not a sealed secret/);
  assert.equal(box.openOrPlain('plain text', 'setting-password'), 'plain text');
  assert.throws(() => new SecretBox(Buffer.alloc(16)), /32 bytes/);
});

test('a configured key is 64 hex digits or base64 / base64url of 32 bytes', () => {
  const key = Buffer.from(generateSecretKeyText(), 'hex');
  assert.equal(key.length, 32);
  assert.deepEqual(decodeSecretKey(key.toString('hex')), key);
  assert.deepEqual(decodeSecretKey(key.toString('hex').toUpperCase()), key);
  assert.deepEqual(decodeSecretKey(key.toString('base64')), key);
  assert.deepEqual(decodeSecretKey(key.toString('base64url')), key);
  assert.deepEqual(decodeSecretKey(` ${key.toString('hex')}\n`), key);
  for (const bad of ['', 'secret', 'ab'.repeat(31), 'ab'.repeat(33), Buffer.alloc(31).toString('base64')]) {
    assert.equal(decodeSecretKey(bad), undefined, bad);
  }
  assert.throws(() => loadConfig({ KUMO_SECRET_KEY: 'too-short' }), ConfigError);
  assert.equal(loadConfig({ KUMO_SECRET_KEY: key.toString('base64') }).secretKey, key.toString('base64'));
  assert.equal(loadConfig({}).secretKey, undefined);
});

test('the key file is generated once (mode 0600) and read back; a configured key wins', () => {
  const dir = mkdtempSync(path.join(folder, 'data-'));
  const keyFile = dataPaths(dir).secretKey;
  assert.equal(keyFile, path.join(dir, 'secret-key'));
  const generated = loadSecretKey(undefined, keyFile);
  assert.equal(generated.length, 32);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.match(readFileSync(keyFile, 'utf8'), /^[0-9a-f]{64}\n$/);
  assert.deepEqual(loadSecretKey(undefined, keyFile), generated, 'the same key at every start');

  const configured = Buffer.alloc(32, 7);
  assert.deepEqual(loadSecretKey(configured.toString('hex'), keyFile), configured);
  assert.throws(() => loadSecretKey('nope', keyFile), /KUMO_SECRET_KEY/);

  writeFileSync(keyFile, 'garbage\n');
  assert.throws(() => loadSecretKey(undefined, keyFile), /does not hold a secret key/);
});
