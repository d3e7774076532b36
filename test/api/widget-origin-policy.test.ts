/**
 * The origin policy as the widget meets it (docs/reference/widget.md, Origin policy), over real
 * HTTP: Kumo's own pages (Sec-Fetch-Site: same-origin) are served whatever the allowed list says,
 * a refused origin's 403 is readable through CORS with its NG body, and a listed origin still gets
 * its own origin back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SearchServiceConfig } from '../../src/domain/schemas.js';
import { systemClock } from '../../src/util/index.js';
import {
  docPath,
  HttpClient,
  type NgAnswer,
  type SearchAnswer,
  seedSearchIndex,
} from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const DEMO = docPath(1);
const GOOD = 'https://good.example';

let service: TestService;
let http: HttpClient;

async function configure(config: SearchServiceConfig): Promise<void> {
  assert.ok(await service.service.store.searchServices.updateConfig(1, config, systemClock.nowMicros()));
  // Written to the store directly: told to the service as its management API would.
  service.service.searchServices.forget(1);
}

before(async () => {
  service = await startTestService();
  seedSearchIndex(service.dataDir, 1);
  http = new HttpClient(service.url);
  await configure({ allowed_origins: [GOOD] });
});

after(async () => {
  await http.close();
  await service.close();
});

describe('origin policy for the widget', () => {
  test("a request from Kumo's own origin is served even with an allowed-origins list", async () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin', origin: service.url },
      { 'sec-fetch-site': 'same-origin', referer: `${service.url}/search/1/1/1?q=python` },
    ];
    for (const headers of cases) {
      for (const endpoint of ['search?q=python', 'suggest?q=pyth', 'related_keywords?q=python']) {
        const answer = await http.get(`${DEMO}/${endpoint}`, headers);
        assert.equal(answer.status, 200, `${endpoint} ${JSON.stringify(headers)}: ${answer.text}`);
        assert.match(answer.headers.get('vary') ?? '', /Sec-Fetch-Site/);
      }
    }
    const search = JSON.parse(
      (await http.get(`${DEMO}/search?q=python`, { 'sec-fetch-site': 'same-origin' })).text,
    ) as SearchAnswer;
    assert.equal(search.organic.hits, 6);
    // A script tag of the hosted page (JSONP) is served too.
    const jsonp = await http.get(`${DEMO}/search?q=python&callback=cb`, { 'sec-fetch-site': 'same-origin' });
    assert.equal(jsonp.status, 200);
    assert.ok(jsonp.text.startsWith('/**/cb('));
  });

  test('a refused origin gets a 403 whose NG body a page can read: Access-Control-Allow-Origin *', async () => {
    const cases: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { origin: `${GOOD}.evil.example`, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://sub.good.example', 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of cases) {
      const answer = await http.get(`${DEMO}/search?q=python`, headers);
      const label = JSON.stringify(headers);
      assert.equal(answer.status, 403, label);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', label);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, label);
      const body = JSON.parse(answer.text) as NgAnswer;
      assert.equal(body.status, 'NG');
      assert.match(body.message, /may not use this search service|answers only pages of its allowed origins/);
      assert.ok(!answer.text.includes('organic'), label);
      if (headers.origin !== undefined) assert.ok(body.message.includes(headers.origin), label);
    }
  });

  test('a bad parameter or an unknown service is readable by the calling page: its failure holds no data', async () => {
    const headers = { origin: GOOD, 'sec-fetch-site': 'cross-site' };
    const cases = [
      { path: `${DEMO}/search?q=python&page_number=0`, status: 400 },
      { path: `${DEMO}/click?url=javascript%3Aalert(1)&q=x`, status: 400 },
      { path: `${docPath(99)}/search?q=python`, status: 404 },
    ];
    for (const { path, status } of cases) {
      const answer = await http.get(path, headers);
      assert.equal(answer.status, status, path);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*', path);
      assert.equal((JSON.parse(answer.text) as NgAnswer).status, 'NG', path);
    }
  });

  test('a listed origin still gets its own origin in Access-Control-Allow-Origin', async () => {
    const answer = await http.get(`${DEMO}/search?q=python`, {
      origin: GOOD,
      'sec-fetch-site': 'cross-site',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('access-control-allow-origin'), GOOD);
    assert.match(answer.headers.get('vary') ?? '', /Origin/);
    const suggest = await http.get(`${DEMO}/suggest?q=pyth`, { origin: `${GOOD}/` });
    assert.equal(
      suggest.status,
      403,
      'an Origin header never ends with a slash; this one is not the listed origin',
    );
  });

  test('without a list every page is served with Access-Control-Allow-Origin *', async () => {
    await configure({});
    try {
      const answer = await http.get(`${DEMO}/search?q=python`, {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
    } finally {
      await configure({ allowed_origins: [GOOD] });
    }
  });
});
