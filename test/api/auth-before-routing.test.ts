/**
 * Credentials before routing (docs/reference/conventions.md, Status codes): under the management
 * API, /metrics, the instant crawl API and its downloads, an unknown path or method asks for
 * credentials first (401), so a caller without them cannot tell which paths exist; with them it
 * is the usual 404 or 405. The keyless APIs (site search, scheduled crawler) still answer 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertNg } from '../support/api-assertions.js';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.close();
});

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('management API', () => {
  const unknown = ['/admin/v1/nothing-here', '/admin/v1', '/admin/v1/contracts/1/unknown', '/%61dmin/v1/x'];

  test('an unknown path without the token is 401, not 404', async () => {
    for (const url of unknown) {
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }]) {
        const response = await service.inject({ method: 'GET', url, headers });
        assertNg(response, 401);
        assert.equal(response.headers['www-authenticate'], 'Bearer realm="kumo-admin"', url);
        assert.doesNotMatch(response.body, /no resource/, url);
      }
    }
    const post = await service.inject({ method: 'POST', url: '/admin/v1/unknown', payload: { a: 1 } });
    assertNg(post, 401);
  });

  test('with the token an unknown path is 404', async () => {
    for (const url of unknown) {
      const response = await service.inject({ method: 'GET', url, headers: ADMIN });
      assertNg(response, 404);
    }
  });

  test('a wrong method on a known path is 401 without the token, 405 with it', async () => {
    const refused = await service.inject({ method: 'PATCH', url: '/admin/v1/contracts' });
    assertNg(refused, 401);
    assert.equal(refused.headers.allow, undefined);
    const allowed = await service.inject({ method: 'PATCH', url: '/admin/v1/contracts', headers: ADMIN });
    assertNg(allowed, 405);
  });

  test('/metrics/<unknown> without the token is 401', async () => {
    assertNg(await service.inject({ method: 'GET', url: '/metrics/unknown' }), 401);
  });
});

describe('instant crawl API and downloads', () => {
  const unknown = () => [
    '/api/v1/nothing-here',
    '/api/v1',
    `${service.tenant.crawlerPath}/unknown`,
    `${service.tenant.crawlerPath}/statuses/requests/1/unknown`,
    '/instant_crawler/contracts/1/servicegroups/1/unknown',
  ];

  test('an unknown path without an API key, or with an unknown one, is 401, not 404', async () => {
    for (const url of unknown()) {
      const missing = await service.inject({ method: 'GET', url });
      assertNg(missing, 401);
      assert.match(missing.json.message, /x-mf-apikey/, url);
      const wrong = await service.inject({ method: 'GET', url, headers: { 'x-mf-apikey': 'no-such-key' } });
      assertNg(wrong, 401);
    }
  });

  test('with a valid key an unknown path is 404', async () => {
    for (const url of unknown()) {
      const response = await service.inject({
        method: 'GET',
        url,
        headers: { 'x-mf-apikey': service.apiKey },
      });
      assertNg(response, 404);
    }
  });

  test('a wrong method on a known path is 401 without a key, 405 with it', async () => {
    const url = `${service.tenant.crawlerPath}/request`;
    const refused = await service.inject({ method: 'DELETE', url });
    assertNg(refused, 401);
    assert.equal(refused.headers.allow, undefined);
    const allowed = await service.inject({
      method: 'DELETE',
      url,
      headers: { 'x-mf-apikey': service.apiKey },
    });
    assertNg(allowed, 405);
    assert.equal(allowed.headers.allow, 'POST');
  });
});

test('the keyless APIs answer an unknown path with 404', async () => {
  for (const url of [
    '/api/v1.0/finder_service/nothing-here',
    '/api/v1.0/crawler_service/nothing-here',
    '/api/v1.0/crawler_service/contracts/1/servicegroups/1/unknown',
    '/nothing-here',
  ]) {
    assertNg(await service.inject({ method: 'GET', url }), 404);
  }
});
