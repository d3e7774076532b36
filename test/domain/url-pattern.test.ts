/**
 * URL patterns on RE2 (src/domain/url-pattern.ts, docs/reference/crawl-rules.md, Scope): what is
 * refused and why, in plain words; the patterns that made the backtracking engine run for seconds
 * to hours match long adversarial URLs in milliseconds; ordinary patterns match as they did with
 * JavaScript's engine.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveCrawlSettings } from '../../src/domain/crawl-settings.js';
import { compileUrlPattern } from '../../src/domain/url-pattern.js';
import { UnsupportedUrlPatternError, urlPatternProblem } from '../../src/domain/url-pattern-problem.js';
import { compileFacetRules } from '../../src/search/site/facet-rules.js';

const NO_LOOKAROUND = '(patterns use RE2 syntax: no lookaround or backreferences)';
const NO_ATOMIC = '(patterns use RE2 syntax: no atomic groups or possessive quantifiers)';

describe('a pattern RE2 cannot run: the construct, in plain words', () => {
  const cases: [string, string][] = [
    ['^https://x/(?=a)', `lookahead "(?=" is not supported ${NO_LOOKAROUND}`],
    ['^https://x/(?!a)', `negative lookahead "(?!" is not supported ${NO_LOOKAROUND}`],
    ['(?<=/docs)/a', `lookbehind "(?<=" is not supported ${NO_LOOKAROUND}`],
    ['(?<!/docs)/a', `negative lookbehind "(?<!" is not supported ${NO_LOOKAROUND}`],
    ['/(a)\\1/', `backreference "\\1" is not supported ${NO_LOOKAROUND}`],
    ['/(?<n>a)\\k<n>/', `named backreference "\\k<name>" is not supported ${NO_LOOKAROUND}`],
    ['/a++/', `possessive quantifier "++" is not supported ${NO_ATOMIC}`],
    ['/a{2}+/', `possessive quantifier "{2}+" is not supported ${NO_ATOMIC}`],
    ['/(?>a)/', `atomic group "(?>" is not supported ${NO_ATOMIC}`],
  ];
  for (const [pattern, reason] of cases) {
    test(pattern, () => assert.equal(urlPatternProblem(pattern), reason));
  }
});

describe('a pattern that does not compile: RE2 reason, in the words JavaScript used where they agree', () => {
  const cases: [string, string][] = [
    ['(', 'is not a valid regular expression (unterminated group)'],
    ['[a-', 'is not a valid regular expression (unterminated character class)'],
    ['*.html', 'is not a valid regular expression (nothing to repeat)'],
    ['a)', 'is not a valid regular expression (unmatched ")")'],
    ['a\\', 'is not a valid regular expression ("\\" at end of pattern)'],
    ['(?<a>x)(?<a>y)', 'is not a valid regular expression (duplicate capture group name)'],
    ['[z-a]', 'is not a valid regular expression (invalid character class range "z-a")'],
    ['\\q', 'is not a valid regular expression (invalid escape sequence "\\q")'],
    [
      'a{1001}',
      'is not a valid regular expression (repetition count "{1001}" is out of order or over 1000; counts of nested repetitions multiply)',
    ],
    [
      '(?:a{0,100}){0,100}',
      'is not a valid regular expression (repetition count "{0,100}" is out of order or over 1000; counts of nested repetitions multiply)',
    ],
    [
      '[\\p{L}\\p{N}]{1000}',
      'is not a valid regular expression (pattern too large for the matching engine (a large class or group repeated many times))',
    ],
    ['(?P=n)', 'group syntax "(?P" is not supported (patterns use RE2 syntax)'],
    [
      '(?:.{0,50}[x0]){20}q',
      'is too large: it compiles to 2023 instructions, the limit is 1200 (write counted repetitions like {0,1000} and long alternations more simply)',
    ],
    [
      '^https://example\\.com/.{0,1000}$',
      'is too large: it compiles to 2024 instructions, the limit is 1200 (write counted repetitions like {0,1000} and long alternations more simply)',
    ],
  ];
  for (const [pattern, reason] of cases) {
    test(pattern, () => assert.equal(urlPatternProblem(pattern), reason));
  }
});

/**
 * The patterns the former backtracking check let through, each with an input that made
 * JavaScript's engine run for seconds (3 s, over 15 s, over 15 s on 120 characters, 8 s on 3,000)
 * or far longer at the length used here.
 */
const ATTACKS: { name: string; pattern: string; input: string }[] = [
  { name: 'a? x28 a x28', pattern: `^${'a?'.repeat(28)}${'a'.repeat(28)}$`, input: 'a'.repeat(57) },
  { name: 'a{0,10} x40', pattern: `^${'a{0,10}'.repeat(40)}$`, input: `${'a'.repeat(400)}!` },
  { name: '(?:a|b){0,10} x12', pattern: `^${'(?:a|b){0,10}'.repeat(12)}!`, input: 'ab'.repeat(60) },
  { name: 'a*(?:b|)a*(?:b|)a*!', pattern: '^a*(?:b|)a*(?:b|)a*!', input: 'a'.repeat(3000) },
];

describe('the patterns that backtracked for seconds to hours are accepted and match in linear time', () => {
  for (const { name, pattern, input } of ATTACKS) {
    test(name, () => {
      assert.equal(urlPatternProblem(pattern), undefined);
      const compiled = compileUrlPattern(pattern);
      // 100 times the length that took the backtracking engine seconds, and tried 100 times.
      const long = input.repeat(100);
      const startMs = performance.now();
      for (let round = 0; round < 100; round += 1) {
        compiled.test(input);
        compiled.test(long);
      }
      const elapsedMs = performance.now() - startMs;
      assert.ok(elapsedMs < 1000, `${name}: ${elapsedMs.toFixed(0)} ms`);
    });
  }
});

describe('ordinary patterns match as they did with JavaScript regular expressions', () => {
  const PATTERNS = [
    '^https?://(www\\.)?example\\.com/',
    '\\.pdf$',
    '/news/\\d{4}/\\d{2}/',
    '^https://[^/]+/docs/(\\w+)/',
    '[?&]page=\\d+',
    '^https://example\\.com/(?:en|ja)/(?<section>[a-z-]+)/',
    '/(login|logout)(/|$)',
    '^https://([a-z0-9-]+\\.)*example\\.com/',
    '.*\\.html?$',
    '\\bid=\\w+',
    '^https://example\\.com/[^?#]*$',
    '/[A-Z][a-z]+/',
    '%[0-9A-F]{2}',
    '^http://127\\.0\\.0\\.1:\\d+/a/.*?/b',
    '\\/private\\/',
    '',
  ];
  const URLS = [
    'https://example.com/',
    'https://www.example.com/docs/guide/intro.html',
    'http://example.com/file.PDF',
    'https://example.com/file.pdf',
    'https://example.com/news/2024/05/story',
    'https://shop.example.com/list?page=12&sort=asc',
    'https://example.com/ja/getting-started/',
    'https://example.com/login',
    'https://example.com/logout/now',
    'https://a.b-c.example.com/x?id=abc_1',
    'https://example.com/%E8%A3%BD%E5%93%81/Camera',
    'http://127.0.0.1:8080/a/x/y/b/c',
    'https://example.com/private/notes#top',
    'https://xn--r8jz45g.jp/index.htm',
  ];
  for (const pattern of PATTERNS) {
    test(pattern === '' ? '(empty pattern)' : pattern, () => {
      const js = new RegExp(pattern);
      const re2 = compileUrlPattern(pattern);
      for (const url of URLS) {
        assert.equal(re2.test(url), js.test(url), url);
        const [jsMatch, re2Match] = [js.exec(url), re2.exec(url)];
        assert.deepEqual(re2Match && [...re2Match], jsMatch && [...jsMatch], url);
        assert.equal(re2Match?.index, jsMatch?.index, url);
        assert.deepEqual({ ...re2Match?.groups }, { ...jsMatch?.groups }, url);
      }
    });
  }
});

describe('a stored pattern RE2 cannot run', () => {
  test('resolving the setting of a run throws an error naming the field and the construct', () => {
    const setting = {
      seed_urls: ['https://example.com/'],
      deny_urls_patterns: ['\\.pdf$', '^https://example\\.com/(?=private)'],
    };
    assert.throws(
      () => resolveCrawlSettings(setting),
      (error: unknown) => {
        assert.ok(error instanceof UnsupportedUrlPatternError);
        assert.equal(
          error.message,
          `setting.deny_urls_patterns[1]: lookahead "(?=" is not supported ${NO_LOOKAROUND}`,
        );
        return true;
      },
    );
    const credential = {
      seed_urls: ['https://example.com/'],
      authorizations: [{ type: 'BASIC' as const, user: 'u', password: 'p', url_pattern: '(?<=x)y' }],
    };
    assert.throws(
      () => resolveCrawlSettings(credential),
      /^UnsupportedUrlPatternError: setting\.authorizations\[0\]\.url_pattern: lookbehind "\(\?<="/,
    );
  });

  test('a search service rule is left out, the others apply', () => {
    const rules = compileFacetRules({
      categories: [
        { name: 'Docs', url_pattern: '/docs/' },
        { name: 'Old', url_pattern: '/(?!new)' },
      ],
      drilldowns: [
        { url_pattern: '/(a)\\1/', path: 'Twice' },
        { url_pattern: '^https://[^/]+/(\\w+)/', path: 'Top\t$1' },
      ],
    });
    assert.deepEqual(
      rules.categories.map((category) => category.name),
      ['Docs'],
    );
    assert.deepEqual(
      rules.drilldowns.map((rule) => rule.path),
      ['Top\t$1'],
    );
    assert.deepEqual(
      rules.skipped.map((error) => error.message),
      [
        `categories[1].url_pattern: negative lookahead "(?!" is not supported ${NO_LOOKAROUND}`,
        `drilldowns[0].url_pattern: backreference "\\1" is not supported ${NO_LOOKAROUND}`,
      ],
    );
  });
});
