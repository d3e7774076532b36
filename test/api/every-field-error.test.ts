/**
 * A 400 names every bad field at once (docs/api.md, Common rules): the fields the schema refuses
 * and the rules the schema cannot express (an ftp:// seed, a pattern that does not compile) alike,
 * and an unknown field names the known field it is closest to, at any depth. Over real HTTP, on the
 * instant crawl API and the admin API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

const ADMIN_TENANT = '/admin/v1/contracts/1/servicegroups/1';
const SEED = 'http://127.0.0.1:9/';
const DAILY = { interval: 2, min: 0, hour: 3 };

interface FieldError {
  field: string;
  reason: string;
}

interface NgBody {
  status: string;
  message: string;
  errors: FieldError[];
}

let kumo: TestService;

before(async () => {
  kumo = await startTestService();
});

after(() => kumo?.close());

async function send(
  api: 'instant' | 'admin',
  method: 'POST' | 'PUT',
  path: string,
  body: object,
): Promise<{ status: number; body: NgBody }> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
  };
  if (api === 'instant') headers['x-mf-apikey'] = kumo.apiKey;
  else headers.authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
  const base = api === 'instant' ? kumo.tenant.crawlerPath : ADMIN_TENANT;
  const response = await fetch(`${kumo.url}${base}${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as NgBody };
}

/** The 400's fields, each with its reason, and the message naming the first. */
function assertFields(answer: { status: number; body: NgBody }, fields: string[]): FieldError[] {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.status, 'NG');
  assert.deepEqual(
    answer.body.errors.map((error) => error.field),
    fields,
    JSON.stringify(answer.body.errors),
  );
  for (const error of answer.body.errors) assert.ok(error.reason.length > 0, error.field);
  const first = answer.body.errors[0]!;
  assert.equal(answer.body.message, `${first.field}: ${first.reason}`);
  return answer.body.errors;
}

const reasonOf = (errors: FieldError[], field: string) =>
  errors.find((error) => error.field === field)?.reason;

describe('an instant crawl request with several bad fields', () => {
  test('a depth_limit out of range and an ftp:// seed: one 400 naming both', async () => {
    const answer = await send('instant', 'POST', '/request', {
      setting: { seed_urls: ['ftp://example.com/'], depth_limit: -1 },
    });
    const errors = assertFields(answer, ['setting.depth_limit', 'setting.seed_urls[0]']);
    assert.equal(reasonOf(errors, 'setting.depth_limit'), 'must be >= 0');
    assert.match(reasonOf(errors, 'setting.seed_urls[0]')!, /http/);
  });

  test('a seed the schema refuses is named once: checking the rest does not add the list as missing', async () => {
    const answer = await send('instant', 'POST', '/request', {
      setting: { seed_urls: [42], depth_limit: -1 },
    });
    assertFields(answer, ['setting.seed_urls[0]', 'setting.depth_limit']);
  });

  test('an unknown field names the closest known one, beside a rule error', async () => {
    const answer = await send('instant', 'POST', '/request', {
      setting: {
        seed_urls: [SEED],
        allow_url_patterns: ['^http://127'],
        deny_urls_patterns: ['('],
      },
    });
    const errors = assertFields(answer, ['setting.allow_url_patterns', 'setting.deny_urls_patterns[0]']);
    assert.equal(
      reasonOf(errors, 'setting.allow_url_patterns'),
      'unknown field; did you mean `allow_urls_patterns`?',
    );
  });

  test('an unknown field of a nested object names the closest field of that object', async () => {
    const answer = await send('instant', 'POST', '/request', {
      setting: {
        seed_urls: [SEED],
        authorizations: [{ type: 'BASIC', usr: 'u', password: 'p' }],
        screenshot: { viewport_widht: 800 },
      },
    });
    // In the schema's order of fields: screenshot comes before authorizations.
    const errors = assertFields(answer, [
      'setting.screenshot.viewport_widht',
      'setting.authorizations[0].usr',
    ]);
    assert.equal(reasonOf(errors, 'setting.authorizations[0].usr'), 'unknown field; did you mean `user`?');
    assert.equal(
      reasonOf(errors, 'setting.screenshot.viewport_widht'),
      'unknown field; did you mean `viewport_width`?',
    );
  });

  test('an unknown field far from every known one names none', async () => {
    const answer = await send('instant', 'POST', '/request', {
      setting: { seed_urls: [SEED], colour_scheme: 'dark' },
    });
    const errors = assertFields(answer, ['setting.colour_scheme']);
    assert.equal(reasonOf(errors, 'setting.colour_scheme'), 'unknown field');
  });
});

describe('the admin API bodies', () => {
  const badSetting = { seed_urls: ['ftp://example.com/'], depth_limit: 1001 };

  test('a crawl service setting created with a bad depth_limit and an ftp:// seed names both', async () => {
    const answer = await send('admin', 'POST', '/service_settings', {
      setting: badSetting,
      schedule: DAILY,
    });
    assertFields(answer, ['body.setting.depth_limit', 'body.setting.seed_urls[0]']);
  });

  test('a crawl service setting replaced with them names both, and the schedule too', async () => {
    const created = await send('admin', 'POST', '/service_settings', {
      setting: { seed_urls: [SEED] },
      schedule: DAILY,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = (created.body as unknown as { service_setting_id: number }).service_setting_id;
    const answer = await send('admin', 'PUT', `/service_settings/${id}`, {
      setting: badSetting,
      schedule: { ...DAILY, minn: 5 },
    });
    const errors = assertFields(answer, [
      'body.setting.depth_limit',
      'body.schedule.minn',
      'body.setting.seed_urls[0]',
    ]);
    assert.equal(reasonOf(errors, 'body.schedule.minn'), 'unknown field; did you mean `min`?');
  });

  test('a search service configuration names an unknown field and a pattern that does not compile', async () => {
    const answer = await send('admin', 'POST', '/search_services', {
      name: 'docs',
      config: {
        weigths: {},
        categories: [{ name: 'Guide', url_pattern: '(' }],
      },
    });
    const errors = assertFields(answer, ['body.config.weigths', 'body.config.categories[0].url_pattern']);
    assert.equal(reasonOf(errors, 'body.config.weigths'), 'unknown field; did you mean `weights`?');
  });
});
