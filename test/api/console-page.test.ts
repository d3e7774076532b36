/**
 * The console's page and files as `kumo serve` answers them over real HTTP (docs/console.md,
 * Security): one HTML page for every address under /console with a strict CSP and no framing,
 * its script and stylesheet by content-addressed names cached for a year, and none of it under
 * the widget's paths or in the widget's manifest.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { HttpClient } from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const WEB = new URL('../../web/', import.meta.url);
const sha256Of = (file: string) =>
  createHash('sha256')
    .update(readFileSync(new URL(file, WEB)))
    .digest('hex');

let service: TestService;
let http: HttpClient;

before(async () => {
  service = await startTestService();
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

describe('the console page', () => {
  test('every address under /console answers the same page, with a strict CSP and no framing', async () => {
    const pages = await Promise.all(
      ['/console', '/console/', '/console/sign-in', '/console/contracts/1/groups/1/runs/7'].map((path) =>
        http.get(path),
      ),
    );
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('cache-control'), 'no-cache');
      assert.equal(page.text, pages[0]!.text);
    }
    const script = `console.${sha256Of('console.js').slice(0, 16)}.js`;
    const styles = `console.${sha256Of('console.css').slice(0, 16)}.css`;
    assert.ok(pages[0]!.text.includes(`src="/console/assets/${script}"`), pages[0]!.text);
    assert.ok(pages[0]!.text.includes(`href="/console/assets/${styles}"`), pages[0]!.text);
  });

  test('the script and stylesheet come by content-addressed names, cached for a year', async () => {
    for (const [file, type] of [
      ['console.js', 'text/javascript; charset=utf-8'],
      ['console.css', 'text/css; charset=utf-8'],
    ] as const) {
      const name = file.replace('.', `.${sha256Of(file).slice(0, 16)}.`);
      const answer = await http.get(`/console/assets/${name}`);
      assert.equal(answer.status, 200, name);
      assert.equal(answer.headers.get('content-type'), type);
      assert.equal(answer.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.deepEqual(answer.bytes, readFileSync(new URL(file, WEB)));
    }
    assert.equal((await http.get('/console/assets/console.0000000000000000.js')).status, 404);
    assert.equal((await http.get('/console/assets/kumo-search.js')).status, 404, 'no widget file here');
  });

  test('the console files are neither under the widget path nor in its manifest', async () => {
    assert.equal((await http.get('/widget/v1/console.js')).status, 404);
    const manifest = JSON.parse((await http.get('/widget/v1/manifest.json')).text) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(manifest).filter((name) => name.startsWith('console')),
      [],
    );
  });
});
