/**
 * The catastrophic-backtracking test of URL patterns (src/domain/regex-safety.ts): tables of
 * patterns it must refuse and of everyday URL patterns it must accept, the accepted ones timed on
 * hostile URLs, and its use by the crawl setting and search service checks.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstantCrawlerSetting } from '../../src/domain/crawl-setting-schema.js';
import { checkCrawlSetting } from '../../src/domain/crawl-settings.js';
import { regexSafetyProblem } from '../../src/domain/regex-safety.js';
import { checkSearchServiceConfig } from '../../src/domain/search-service-config.js';

/** Patterns that backtrack exponentially (or with a huge polynomial degree) on some input. */
const UNSAFE: [pattern: string, why: RegExp][] = [
  ['(a+)+', /nested quantifiers in "\(a\+\)\+"/],
  ['^(a+)+$', /nested quantifiers/],
  ['(a*)*b', /nested quantifiers/],
  ['([a-z]+)*$', /nested quantifiers/],
  ['(\\w+\\d+)+x', /nested quantifiers/],
  ['(x+x+)+y', /nested quantifiers/],
  ['^(\\w+\\s?)*$', /nested quantifiers/],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', /nested quantifiers/],
  ['(.*a){20}', /nested quantifiers in "\(\.\*a\)\{20\}"/],
  ['(.*,){12}X', /nested quantifiers/],
  ['(a{1,5})+$', /nested quantifiers/],
  ['(a?){30}a{30}', /nested quantifiers/],
  // Delimited, but two repetitions inside share the characters between the delimiters.
  ['(/a*a*)*', /nested quantifiers/],
  ['(\\.a+\\.a+)*', /nested quantifiers/],
  ['(?=(a+)+)b', /nested quantifiers/],
  ['^https://example\\.com/(.+/)+$', /nested quantifiers/],
  ['(a|aa)*', /alternatives in the repeated group "\(a\|aa\)\*" can begin with the same character/],
  ['(a|aa)*$', /can begin with the same character/],
  ['(a|a)*', /can begin with the same character/],
  ['(?:a|b|ab)*c', /can begin with the same character/],
  ['(x|\\w)+$', /can begin with the same character/],
  ['(?:(?:a|b)|a)+', /can begin with the same character/],
  ['(a|)+b', /can match nothing/],
  ['(\\1a)*', /a backreference inside the repeated group "\(\\1a\)\*"/],
  ['(a)(?:\\1a)*b', /a backreference inside the repeated group/],
  ['(?<x>a)(?:\\k<x>b)+', /a backreference inside the repeated group/],
];

/** Patterns whose matching time is a polynomial of degree 3 or more in the URL length. */
const POLYNOMIAL: [pattern: string, degree: number][] = [
  ['.*.*.*=', 4],
  ['.*/.*\\.html$', 3],
  ['.*\\?.*=.*', 3],
  ['a*aa*$', 3],
  ['^https://[^/]+/.*/.*/.*\\.html$', 3],
  ['^(.*)/(.*)/(.*)$', 3],
  ['^x(?:\\w{0,100}\\w{0,100}\\w{0,100})y', 3],
  ['(?=.*a.*b)', 3],
];

/** Everyday allow / deny / category patterns, some with safe repetitions of groups. */
const SAFE: string[] = [
  '^https://example\\.com/',
  '^https?://[^/]+/docs/',
  '\\.pdf$',
  '[?&]sessionid=',
  '/(news|blog)/\\d{4}/',
  '.*\\.html$',
  '.*foo.*',
  '/tag/.*/page/',
  '^https://example\\.com/.*/.*\\.html$',
  '^.*/.*\\.html$',
  '^https://[^/]+/[^/]*/[^/]*/.*\\.html$',
  '^(?:a|.*)b',
  '^https://example\\.com/.*\\?page=\\d+',
  '^https://www\\.example\\.com/(ja|en)/products/([^/]+)/',
  '^https?://(www\\.)?example\\.(com|jp)/',
  '^[^?]*\\.(jpg|png|gif)$',
  '^https://ex\\.com/[^?#]*$',
  // Repeated groups cut by a delimiter the rest cannot match.
  '^https://([a-z0-9-]+\\.)*example\\.com/',
  '^https://ex\\.com(/[^/]+)*/$',
  '(?:/[^/]+){0,3}/index\\.html',
  '^https://example\\.com/(?:docs|api)(?:/[\\w.-]+)*$',
  '^(\\d{1,3}\\.){3}\\d{1,3}$',
  '(ab?)*c',
  // Repeated groups whose next character picks the alternative, or of fixed length.
  '(foo|bar)+baz',
  '(?:[0-9a-f]{2})+$',
  '(?:\\.(?:html|php))+$',
  // Other syntax: lookbehind, named groups and their backreference outside a repetition, Annex B.
  '(?<=/)docs',
  '(?<year>\\d{4})/\\k<year>',
  '\\p{L}+',
  'a{',
  '[]+',
  '(?:)*',
];

describe('regexSafetyProblem', () => {
  for (const [pattern, why] of UNSAFE) {
    test(`refuses ${pattern}`, () => {
      const reason = regexSafetyProblem(pattern);
      assert.ok(reason !== undefined, `${pattern} passed`);
      assert.match(reason, why);
      assert.match(reason, /exponential time/);
    });
  }

  for (const [pattern, degree] of POLYNOMIAL) {
    test(`refuses ${pattern} (degree ${degree})`, () => {
      const reason = regexSafetyProblem(pattern);
      assert.ok(reason !== undefined, `${pattern} passed`);
      assert.match(reason, new RegExp(`can trade the same characters.*power ${degree} of the URL length`));
    });
  }

  for (const pattern of SAFE) {
    test(`accepts ${pattern}`, () => {
      assert.doesNotThrow(() => new RegExp(pattern));
      assert.equal(regexSafetyProblem(pattern), undefined);
    });
  }

  test('the accepted patterns stay fast on long hostile URLs', () => {
    const bodies = ['a', '/', '.', 'a.', '/a', 'ab', '1.', '%', 'foo', 'x/'];
    const hostile = bodies.flatMap((body) => {
      // 2,000 characters: the longest URL the sitemap protocol allows.
      const run = body.repeat(Math.ceil(2000 / body.length));
      return [`https://example.com/${run}`, `https://${run}!`, `${run}\u0000`, `https://ex.com/${run}?#`];
    });
    const started = performance.now();
    for (const pattern of SAFE) {
      const regex = new RegExp(pattern);
      for (const url of hostile) regex.test(url);
    }
    const elapsed = performance.now() - started;
    // Unanchored ".*foo.*" is quadratic in any backtracking engine (a few ms a URL here); an
    // exponential pattern would not end.
    assert.ok(elapsed < 5000, `${elapsed.toFixed(0)} ms`);
  });

  test('a refused pattern really is slow: .*.*.*= on 200 a takes far longer than on 50', () => {
    const time = (n: number) => {
      const started = performance.now();
      /.*.*.*=/.test('a'.repeat(n));
      return performance.now() - started;
    };
    time(50);
    const small = time(50);
    const large = time(200);
    // 4^4 = 256 times the work.
    assert.ok(large > small * 20, `50: ${small.toFixed(3)} ms, 200: ${large.toFixed(3)} ms`);
  });

  test('a refused pattern really backtracks: (a+)+$ on 24 a and a b takes far longer than on 12', () => {
    const time = (n: number) => {
      const started = performance.now();
      /(a+)+$/.test(`${'a'.repeat(n)}b`);
      return performance.now() - started;
    };
    time(12);
    const small = time(12);
    const large = time(24);
    assert.ok(large > small * 20, `12: ${small.toFixed(3)} ms, 24: ${large.toFixed(3)} ms`);
  });

  test('patterns of 1,000 characters are checked in well under a second', () => {
    const alternatives = Array.from({ length: 150 }, (_, i) => `p${i}`).join('|');
    const wide = `^https://example\\.com/(?:${alternatives})/(?:[a-z]\\d)+$`;
    const deep = `${'(?:'.repeat(190)}a+${')+'.repeat(190)}`;
    const braces = '(?:a{1,2}){2}'.repeat(75);
    for (const pattern of [wide, deep, braces]) assert.ok(pattern.length <= 1000, `${pattern.length}`);
    const started = performance.now();
    assert.equal(regexSafetyProblem(wide), undefined);
    assert.match(regexSafetyProblem(deep) ?? '', /nested quantifiers/);
    assert.match(regexSafetyProblem(braces) ?? '', /nested quantifiers/);
    assert.ok(performance.now() - started < 1000);
  });
});

describe('the checks that use it', () => {
  const setting = (extra: Partial<InstantCrawlerSetting>): InstantCrawlerSetting => ({
    seed_urls: ['https://example.com/'],
    ...extra,
  });

  test('checkCrawlSetting names the unsafe allow, deny and credential patterns', () => {
    const errors = checkCrawlSetting(
      setting({
        allow_urls_patterns: ['^https://example\\.com/', '(a|aa)*$'],
        deny_urls_patterns: ['\\.pdf$', '\\?x=', '(\\d+)+$'],
        authorizations: [{ type: 'BASIC', url_pattern: '(.*a){20}', user: 'u', password: 'p' }],
      }),
    );
    assert.deepEqual(
      errors.map((error) => error.field),
      [
        'setting.allow_urls_patterns[1]',
        'setting.deny_urls_patterns[2]',
        'setting.authorizations[0].url_pattern',
      ],
    );
    for (const error of errors) assert.match(error.reason, /exponential time/);
  });

  test('checkCrawlSetting: pattern count and length, invalid syntax first', () => {
    const tooMany = checkCrawlSetting(
      setting({ deny_urls_patterns: Array.from({ length: 101 }, () => 'x') }),
    );
    assert.deepEqual(tooMany, [{ field: 'setting.deny_urls_patterns', reason: 'at most 100 patterns' }]);
    const long = checkCrawlSetting(
      setting({ allow_urls_patterns: ['a', 'b', 'c', 'x'.repeat(1001), 'y'.repeat(1000)] }),
    );
    assert.deepEqual(
      long.map((error) => error.field),
      ['setting.allow_urls_patterns[3]'],
    );
    const invalid = checkCrawlSetting(setting({ allow_urls_patterns: ['(a+'] }));
    assert.deepEqual(invalid, [
      {
        field: 'setting.allow_urls_patterns[0]',
        reason: 'is not a valid regular expression (unterminated group)',
      },
    ]);
  });

  test('checkSearchServiceConfig names unsafe category and drill-down patterns', () => {
    const errors = checkSearchServiceConfig(
      {
        categories: [
          { name: 'Docs', url_pattern: '/docs/' },
          { name: 'Bad', url_pattern: '^https://x\\.com/(\\w+)*$' },
        ],
        drilldowns: [
          { url_pattern: '^https://[^/]+/products/([^/]+)/', path: 'Products\t$1' },
          { url_pattern: '/(a|ab)+/', path: 'A' },
        ],
      },
      'body.config.',
    );
    assert.deepEqual(
      errors.map((error) => error.field),
      ['body.config.categories[1].url_pattern', 'body.config.drilldowns[1].url_pattern'],
    );
    for (const error of errors) assert.match(error.reason, /exponential time/);
  });
});
