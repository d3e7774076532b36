/**
 * The hosted search page over real HTTP (docs/reference/widget.md, Hosted search page): the HTML
 * shell that loads the widget from its immutable path with the documented data-* attributes, its
 * CSP and nonce, the service name as text, the language from ?lang= and Accept-Language, and HTML
 * failure pages for an unknown service, a bad id and a bad language.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { systemClock } from '../../src/util/index.js';
import { FINDER_BASE, HttpClient, type NgAnswer } from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const HOSTILE_NAME = '<script>alert(1)</script> & "Co"';
const manifest = JSON.parse(
  readFileSync(new URL('../../web/manifest.json', import.meta.url), 'utf8'),
) as Record<string, { sha256: string }>;
const WIDGET_PATH = `/widget/v1/kumo-search.${manifest['kumo-search.js']!.sha256.slice(0, 16)}.js`;

let service: TestService;
let http: HttpClient;
let hostileId: number;

before(async () => {
  service = await startTestService();
  hostileId = (
    await service.service.store.searchServices.create(
      { contractId: 1, servicegroupId: 1 },
      HOSTILE_NAME,
      {},
      systemClock.nowMicros(),
    )
  ).id;
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

type Element = ReturnType<typeof DomUtils.findAll>[number];

const textOf = (element: Element): string => DomUtils.textContent(element);

function page(html: string) {
  const all = DomUtils.findAll(() => true, parseDocument(html).children);
  const byTag = (tag: string) => all.filter((element) => element.name === tag);
  const byClass = (name: string) =>
    all.filter((element) => (element.attribs.class ?? '').split(' ').includes(name));
  return { all, byTag, byClass };
}

describe('hosted search page', () => {
  test('a product page: header with the service name, a Search heading, the widget, a footer', async () => {
    const answer = await http.get('/search/1/1/1?q=python');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(answer.text.startsWith('<!doctype html>'));
    const { byTag, byClass, all } = page(answer.text);
    assert.equal(textOf(byClass('service-name')[0]!), 'demo');
    assert.equal(byTag('header').length, 1);
    assert.equal(textOf(byTag('h1')[0]!), 'Search');
    assert.equal(all.filter((element) => element.attribs.id === 'kumo-search').length, 1);
    assert.match(textOf(byTag('footer')[0]!), /Search by Kumo/);
    assert.match(textOf(byTag('noscript')[0]!), /JavaScript/);
    assert.equal(byTag('html')[0]!.attribs.lang, 'en');
    assert.equal(
      byTag('meta').find((meta) => meta.attribs.name === 'viewport')?.attribs.content,
      'width=device-width, initial-scale=1',
    );
    // Kumo's mark, served by this origin (the CSP's img-src 'self'): the icon answers 200.
    const icon = byTag('link').find((link) => link.attribs.rel === 'icon')?.attribs.href;
    assert.equal(icon, '/favicon.svg');
    const iconAnswer = await http.get(icon);
    assert.equal(iconAnswer.status, 200);
    assert.match(iconAnswer.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  });

  test('loads the widget from its immutable path with the documented data-* attributes, and nothing else', async () => {
    const answer = await http.get('/search/1/1/1');
    const scripts = page(answer.text).byTag('script');
    assert.equal(scripts.length, 1);
    const script = scripts[0]!;
    assert.equal(script.attribs.src, WIDGET_PATH);
    assert.equal(script.attribs['data-service'], '1/1/1');
    assert.equal(script.attribs['data-api'], FINDER_BASE);
    assert.equal(script.attribs['data-layout'], 'page');
    assert.equal(script.attribs['data-param-prefix'], '');
    assert.equal(script.attribs['data-lang'], 'en');
    assert.ok('defer' in script.attribs);
    assert.equal(script.children.length, 0);
    const widget = await http.get(script.attribs.src!);
    assert.equal(widget.status, 200);
  });

  test("a strict CSP whose style nonce is the stylesheet's, new with every answer, and safe headers", async () => {
    const first = await http.get('/search/1/1/1');
    const second = await http.get('/search/1/1/1');
    const nonces = [first, second].map((answer) => {
      const csp = answer.headers.get('content-security-policy') ?? '';
      const match = /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp);
      assert.ok(match, csp);
      assert.equal(
        csp,
        "default-src 'none'; script-src 'self'; connect-src 'self'; " +
          `style-src 'self' 'nonce-${match[1]}'; img-src 'self' data:; base-uri 'none'; ` +
          "form-action 'self'; frame-ancestors 'self'",
      );
      const styles = page(answer.text).byTag('style');
      assert.equal(styles.length, 1);
      assert.equal(styles[0]!.attribs.nonce, match[1]);
      assert.match(textOf(styles[0]!), /@media \(max-width:600px\)/);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      return match[1];
    });
    assert.notEqual(nonces[0], nonces[1]);
  });

  test('a service name with markup appears as text and adds no element', async () => {
    const answer = await http.get(`/search/1/1/${hostileId}`);
    assert.equal(answer.status, 200);
    assert.ok(!answer.text.includes('<script>alert'));
    assert.ok(answer.text.includes('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;'));
    const { byTag, byClass } = page(answer.text);
    assert.equal(textOf(byClass('service-name')[0]!), HOSTILE_NAME);
    assert.equal(textOf(byTag('title')[0]!), `Search – ${HOSTILE_NAME}`);
    assert.equal(byTag('script').length, 1);
    assert.equal(byTag('script')[0]!.attribs['data-service'], `1/1/${hostileId}`);
  });

  test('lang from ?lang=, else Accept-Language (ja or en), else en', async () => {
    const cases: [path: string, acceptLanguage: string | undefined, lang: string][] = [
      ['/search/1/1/1?lang=ja', undefined, 'ja'],
      ['/search/1/1/1?lang=en', 'ja-JP,ja;q=0.9', 'en'],
      ['/search/1/1/1?q=%E4%BA%AC%E9%83%BD&lang=ja', 'en-US', 'ja'],
      ['/search/1/1/1', 'ja-JP,ja;q=0.9,en;q=0.8', 'ja'],
      ['/search/1/1/1', 'en-US,en;q=0.9,ja;q=0.5', 'en'],
      ['/search/1/1/1', 'fr-FR, ja;q=0.3', 'ja'],
      ['/search/1/1/1', 'fr-FR', 'en'],
      ['/search/1/1/1', undefined, 'en'],
    ];
    for (const [path, acceptLanguage, lang] of cases) {
      const answer = await http.get(
        path,
        acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
      );
      const label = `${path} ${acceptLanguage}`;
      assert.equal(answer.status, 200, label);
      const { byTag } = page(answer.text);
      assert.equal(byTag('html')[0]!.attribs.lang, lang, label);
      assert.equal(byTag('script')[0]!.attribs['data-lang'], lang, label);
      assert.equal(textOf(byTag('h1')[0]!), lang === 'ja' ? '検索' : 'Search', label);
      assert.equal(answer.headers.get('content-language'), lang, label);
      assert.match(answer.headers.get('vary') ?? '', /Accept-Language/, label);
    }
  });

  test('an Accept without HTML or JSON is still the page; HEAD has no body; POST is a 405', async () => {
    const json = await http.get('/search/1/1/1', { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.equal(json.headers.get('content-type'), 'text/html; charset=utf-8');
    const head = await service.inject({ method: 'HEAD', url: '/search/1/1/1' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-type'], 'text/html; charset=utf-8');
    const post = await service.inject({ method: 'POST', url: '/search/1/1/1' });
    assert.equal(post.statusCode, 405);
    assert.match(String(post.headers.allow), /\bGET\b/);
  });
});

describe('hosted search page failures', () => {
  test('an unknown service, or one of another tenant, is a 404 HTML page', async () => {
    for (const path of ['/search/1/1/999', '/search/2/1/1', '/search/1/2/1']) {
      const answer = await http.get(path);
      assert.equal(answer.status, 404, path);
      assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const { byTag } = page(answer.text);
      assert.equal(textOf(byTag('h2')[0]!), 'Search page not found');
      assert.equal(byTag('script').length, 0);
    }
    const ja = await http.get('/search/1/1/999', { 'accept-language': 'ja' });
    assert.match(ja.text, /検索ページが見つかりません/);
  });

  test('a non-integer id is a 400 HTML page with the message the API gives for it', async () => {
    for (const id of ['abc', '1.5', '0x1', '01']) {
      const answer = await http.get(`/search/1/1/${id}`);
      assert.equal(answer.status, 400, id);
      assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
      const api = JSON.parse(
        (await http.get(`${FINDER_BASE}/documents/1/1/${id}/search?q=x`)).text,
      ) as NgAnswer;
      assert.match(api.message, /path\.service_id/);
      const detail = page(answer.text).byClass('detail')[0]!;
      assert.equal(textOf(detail), api.message, id);
    }
  });

  test('a lang other than en or ja is a 400 page naming query.lang, in the Accept-Language language', async () => {
    const answer = await http.get('/search/1/1/1?lang=%3Cb%3Efr', { 'accept-language': 'ja' });
    assert.equal(answer.status, 400);
    assert.ok(!answer.text.includes('<b>fr'));
    const { byTag, byClass } = page(answer.text);
    assert.equal(byTag('html')[0]!.attribs.lang, 'ja');
    assert.equal(textOf(byClass('detail')[0]!), 'query.lang: "<b>fr" is not en or ja');
  });
});
