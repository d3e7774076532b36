/**
 * What a new operator meets first (docs/operations.md, First start): `kumo serve` prints the
 * console's address, a browser opening the bare address is sent to the console, any other client
 * gets JSON, and the tab icon is served.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, test } from 'node:test';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir, pollUntil } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

test('kumo serve prints the console address, and the root and icon lead a browser there', async () => {
  const folder = await makeTempDir('kumo-first-contact-');
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const port = await freePort();
  const serve = await startServeProcess({ dataDir: path.join(folder, 'data'), port, cleanups });

  const consoleUrl = await pollUntil('the console line', () => /^Console: (\S+)$/m.exec(serve.output())?.[1]);
  assert.equal(consoleUrl, `http://127.0.0.1:${port}/console/`);
  const page = await fetch(consoleUrl);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(await page.text(), /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/);

  const browser = await fetch(`${serve.url}/`, { headers: { accept: BROWSER_ACCEPT }, redirect: 'manual' });
  assert.equal(browser.status, 302);
  assert.equal(browser.headers.get('location'), '/console/');

  const client = await fetch(`${serve.url}/`, { headers: { accept: 'application/json' } });
  assert.equal(client.status, 200);
  assert.deepEqual(
    { ...((await client.json()) as object), message: undefined },
    { status: 'OK', message: undefined, console_path: '/console/', docs_path: '/docs' },
  );
  const curl = await fetch(`${serve.url}/`, { headers: { accept: '*/*' } });
  assert.equal(curl.status, 200, 'a client that takes anything gets the JSON answer');
  assert.match(curl.headers.get('content-type') ?? '', /^application\/json/);

  // Any other unknown address stays a JSON 404, for browsers too.
  const unknown = await fetch(`${serve.url}/no-such-page`, { headers: { accept: BROWSER_ACCEPT } });
  assert.equal(unknown.status, 404);
  assert.match(unknown.headers.get('content-type') ?? '', /^application\/json/);

  const ico = await fetch(`${serve.url}/favicon.ico`);
  assert.equal(ico.status, 200);
  assert.equal(ico.headers.get('content-type'), 'image/x-icon');
  const bytes = Buffer.from(await ico.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0], 'an ICO with one image');
  assert.equal(bytes.readUInt8(6), 32, '32 pixels wide');
  assert.equal(bytes.readUInt32LE(18) + bytes.readUInt32LE(14), bytes.length, 'the image fills the file');
  const svg = await fetch(`${serve.url}/favicon.svg`);
  assert.equal(svg.status, 200);
  assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
  assert.match(await svg.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);

  assert.deepEqual(await serve.stop(), { code: 0, signal: null });
});
