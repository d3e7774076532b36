/**
 * How 400 answers read (docs/api.md, Common rules, Errors): a bad regular expression says so once,
 * a construct the pattern engine cannot run (lookaround, backreferences) is named, a value outside a fixed set names the allowed values, and a malformed JSON body says where it
 * breaks, on the instant crawl API and the admin API alike.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type InjectResult,
  startTestService,
  TEST_ADMIN_TOKEN,
  type TestService,
} from '../support/service-harness.js';

const ADMIN_TENANT = '/admin/v1/contracts/1/servicegroups/1';
const SEED = 'http://127.0.0.1:9/';

let kumo: TestService;

before(async () => {
  kumo = await startTestService();
});

after(() => kumo?.close());

/** A POST of `payload` (sent as is when a string) to the instant crawl API or the admin API. */
function post(api: 'instant' | 'admin', url: string, payload: string | object): Promise<InjectResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (api === 'instant') headers['x-mf-apikey'] = kumo.apiKey;
  else headers.authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
  return kumo.inject({
    method: 'POST',
    url: api === 'instant' ? `${kumo.tenant.crawlerPath}${url}` : `${ADMIN_TENANT}${url}`,
    headers,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

/** The NG body of a 400 with one error: `{status, message: "<field>: <reason>", errors}`. */
function assertOneError(response: InjectResult, field: string, reason: string): void {
  assert.equal(response.statusCode, 400, response.body);
  assert.deepEqual(response.json, {
    status: 'NG',
    message: `${field}: ${reason}`,
    errors: [{ field, reason }],
  });
}

describe('an invalid regular expression', () => {
  test('in an instant crawl setting: the field and what is wrong, said once', async () => {
    const response = await post('instant', '/request', {
      setting: { seed_urls: [SEED], allow_urls_patterns: ['^https://x/', '('] },
    });
    assertOneError(
      response,
      'setting.allow_urls_patterns[1]',
      'is not a valid regular expression (unterminated group)',
    );
  });

  test('in a scheduled crawl setting and a credential pattern', async () => {
    const response = await post('admin', '/service_settings', {
      setting: {
        seed_urls: [SEED],
        deny_urls_patterns: ['[a-'],
        authorizations: [{ type: 'BASIC', user: 'u', password: 'p', url_pattern: '*.html' }],
      },
      schedule: { interval: 1, min: 0 },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json.errors, [
      {
        field: 'body.setting.deny_urls_patterns[0]',
        reason: 'is not a valid regular expression (unterminated character class)',
      },
      {
        field: 'body.setting.authorizations[0].url_pattern',
        reason: 'is not a valid regular expression (nothing to repeat)',
      },
    ]);
    assert.equal(
      response.json.message,
      'body.setting.deny_urls_patterns[0]: is not a valid regular expression (unterminated character class)',
    );
  });

  test('in a search service rule', async () => {
    const response = await post('admin', '/search_services', {
      name: 'site',
      config: { categories: [{ name: 'News', url_pattern: '(?<a>x)(?<a>y)' }] },
    });
    assertOneError(
      response,
      'body.config.categories[0].url_pattern',
      'is not a valid regular expression (duplicate capture group name)',
    );
  });
});

describe('a construct the pattern engine (RE2) cannot run: the field and the construct', () => {
  const NO_LOOKAROUND = '(patterns use RE2 syntax: no lookaround or backreferences)';

  test('a lookahead in an instant crawl setting', async () => {
    const response = await post('instant', '/request', {
      setting: { seed_urls: [SEED], allow_urls_patterns: ['^http://127\\.0\\.0\\.1:9/(?=docs/)'] },
    });
    assertOneError(
      response,
      'setting.allow_urls_patterns[0]',
      `lookahead "(?=" is not supported ${NO_LOOKAROUND}`,
    );
  });

  test('a lookbehind and a backreference in a scheduled crawl setting', async () => {
    const response = await post('admin', '/service_settings', {
      setting: {
        seed_urls: [SEED],
        deny_urls_patterns: ['\\.pdf$', '(?<!/docs)/private/'],
        authorizations: [{ type: 'BASIC', user: 'u', password: 'p', url_pattern: '^http://([^/]+)/\\1/' }],
      },
      schedule: { interval: 1, min: 0 },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json.errors, [
      {
        field: 'body.setting.deny_urls_patterns[1]',
        reason: `negative lookbehind "(?<!" is not supported ${NO_LOOKAROUND}`,
      },
      {
        field: 'body.setting.authorizations[0].url_pattern',
        reason: `backreference "\\1" is not supported ${NO_LOOKAROUND}`,
      },
    ]);
  });

  test('a named backreference and a lookbehind in search service rules', async () => {
    const response = await post('admin', '/search_services', {
      name: 'site',
      config: {
        categories: [{ name: 'Docs', url_pattern: '/(?<d>docs)/\\k<d>/' }],
        drilldowns: [{ url_pattern: '(?<=/docs/)(\\w+)', path: '$1' }],
      },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(response.json.errors, [
      {
        field: 'body.config.categories[0].url_pattern',
        reason: `named backreference "\\k<name>" is not supported ${NO_LOOKAROUND}`,
      },
      {
        field: 'body.config.drilldowns[0].url_pattern',
        reason: `lookbehind "(?<=" is not supported ${NO_LOOKAROUND}`,
      },
    ]);
  });
});

describe('a value outside a fixed set names the allowed values', () => {
  test('authorizations[].type', async () => {
    const response = await post('instant', '/request', {
      setting: { seed_urls: [SEED], authorizations: [{ type: 'DIGEST', user: 'u', password: 'p' }] },
    });
    assertOneError(response, 'setting.authorizations[0].type', 'must be "BASIC"');
  });
});

describe('a malformed JSON body says where it breaks', () => {
  // The comma after the seed_urls array, at the end of line 3, is missing.
  const missingComma = [
    '{',
    '  "setting": {',
    `    "seed_urls": ["${SEED}"]`,
    '    "depth_limit": 1',
    '  }',
    '}',
  ].join('\n');
  const line3End = `    "seed_urls": ["${SEED}"]`.length;

  test('a comma missing at the end of line 3: the next token on line 4, and where line 3 ends', async () => {
    const response = await post('instant', '/request', missingComma);
    assertOneError(
      response,
      'body',
      `is not valid JSON at line 4, column 5: expected ',' or '}' after a property value, found '"' ` +
        `(the value before it ends at line 3, column ${line3End})`,
    );
  });

  test('a comma missing inside line 3: line 3 and the column of the token after the gap', async () => {
    const line3 = `    "seed_urls": ["${SEED}a" "${SEED}b"],`;
    const body = ['{', '  "setting": {', line3, '    "depth_limit": 1', '  }', '}'].join('\r\n');
    const response = await post('instant', '/request', body);
    const column = line3.indexOf(`"${SEED}b"`) + 1;
    assertOneError(
      response,
      'body',
      `is not valid JSON at line 3, column ${column}: expected ',' or ']' after an array element, found '"'`,
    );
  });

  test('the admin API answers the same way', async () => {
    const response = await post(
      'admin',
      '/service_settings',
      '{"setting": {"seed_urls": ["x"]},\n "schedule": {,}}',
    );
    assertOneError(
      response,
      'body',
      "is not valid JSON at line 2, column 15: expected a property name in double quotes, found ','",
    );
  });

  test('other malformed bodies: the position and what is wrong', async () => {
    const cases: [string, string][] = [
      ['{"setting": {"seed_urls": [', 'line 1, column 28: the JSON ends early: expected a value'],
      ["{'setting': {}}", `line 1, column 2: expected a property name in double quotes, found "'"`],
      ['{"setting": {"depth_limit": 01}}', "line 1, column 29: '01' is not a valid JSON number"],
      [
        '{"setting": {"user_agent": "a\\qb"}}',
        "line 1, column 30: invalid escape sequence '\\q' in a string",
      ],
      ['{"setting": {}} x', "line 1, column 17: unexpected 'x' after the end of the JSON value"],
      [
        '{"setting": "é😀\u0001"}',
        'line 1, column 16: a control character (such as a line break or tab) inside a string; escape it (\\n, \\t)',
      ],
    ];
    for (const [body, where] of cases) {
      assertOneError(await post('instant', '/request', body), 'body', `is not valid JSON at ${where}`);
    }
  });

  test('an empty body and a body with a __proto__ key: 400 naming body', async () => {
    assertOneError(
      await post('instant', '/request', ''),
      'body',
      'is empty, but the content-type says application/json',
    );
    assertOneError(
      await post(
        'instant',
        '/request',
        '{"setting": {"seed_urls": ["http://127.0.0.1:9/"]}, "__proto__": {"x": 1}}',
      ),
      'body',
      'must not contain "__proto__" or "constructor.prototype" keys',
    );
  });
});
