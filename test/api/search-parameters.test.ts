/**
 * Query parameters of the site search API (docs/reference/site-search.md, Common parameters, JSONP
 * and Search): raw-URL parsing with legacy input encodings, defaults, sort_by, doctype, drill-down,
 * number ranges, callback names, collected errors and JSONP bodies.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../src/api/api-error.js';
import { JSONP_CONTENT_TYPE, jsonpBody } from '../../src/api/search/jsonp.js';
import { decodeQueryBytes, parseRawQuery } from '../../src/api/search/raw-query.js';
import {
  parseClickParameters,
  parseRelatedKeywordsParameters,
  parseSearchParameters,
  parseSuggestParameters,
} from '../../src/api/search/search-parameters.js';

const search = (query: string) => parseSearchParameters(`/documents/c/g/s/search?${query}`);

/** The field errors of the 400 that parsing the query throws. */
function errorsOf(parse: () => unknown): { field: string; reason: string }[] {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_input');
    assert.equal(error.statusCode, 400);
    return [...(error.errors ?? [])];
  }
  assert.fail('expected an invalid_input error');
}

function fieldsOf(parse: () => unknown): string[] {
  return errorsOf(parse).map((e) => e.field);
}

describe('parseRawQuery', () => {
  test('keeps values as bytes and repeated names in order', () => {
    const params = parseRawQuery('/x?a=1&b=%8C%9F&a=2&flag&=skipped#frag=1');
    assert.deepEqual([...params.keys()], ['a', 'b', 'flag']);
    assert.deepEqual(
      params.get('a')?.map((v) => [...v]),
      [[0x31], [0x32]],
    );
    assert.deepEqual([...(params.get('b')?.[0] ?? [])], [0x8c, 0x9f]);
    assert.deepEqual([...(params.get('flag')?.[0] ?? [])], []);
  });

  test('reads + as space and keeps invalid escapes literally', () => {
    const value = parseRawQuery('/x?q=a+b%zz%4')?.get('q')?.[0] ?? new Uint8Array();
    assert.equal(decodeQueryBytes(value, 'utf8'), 'a b%zz%4');
  });

  test('decodes names as UTF-8', () => {
    assert.ok(parseRawQuery('/x?%E5%90%8D=1').has('名'));
  });
});

describe('parseSearchParameters', () => {
  test('defaults', () => {
    assert.deepEqual(search(''), {
      q: '',
      input_encoding: 'utf8',
      page_number: 1,
      number_per_page: 10,
      sort_by: ['score desc'],
      sortKeys: [{ field: 'score', order: 'desc' }],
      category: '',
      drilldown: [],
      doctype: ['all'],
      callback: undefined,
    });
    assert.equal(parseSearchParameters('/search').q, '');
  });

  test('decodes q as UTF-8 by default, with + as a space', () => {
    assert.equal(search('q=%E6%A4%9C%E7%B4%A2+site').q, '検索 site');
    assert.equal(search('q=a%2Bb').q, 'a+b');
  });

  for (const [encoding, bytes, expected] of [
    ['sjis', '%8C%9F%8D%F5', '検索'],
    ['euc-jp', '%B8%A1%BA%F7', '検索'],
    ['jis', '%1B%24%42%38%21%3A%77%1B%28%42', '検索'],
    ['euc-kr', '%C7%D1%B1%B9', '한국'],
    ['iso-8859-1', 'caf%E9', 'café'],
  ] as const) {
    test(`decodes q in ${encoding}`, () => {
      const params = search(`q=${bytes}&input_encoding=${encoding}`);
      assert.equal(params.q, expected);
      assert.equal(params.input_encoding, encoding);
    });
  }

  test('decodes q whatever the parameter order', () => {
    assert.equal(search('input_encoding=sjis&q=%8C%9F%8D%F5').q, '検索');
  });

  test('turns bytes invalid in the encoding into U+FFFD', () => {
    assert.equal(search('q=a%FFb').q, 'a\uFFFDb');
  });

  test('refuses an unknown input_encoding', () => {
    assert.deepEqual(
      fieldsOf(() => search('input_encoding=utf16')),
      ['query.input_encoding'],
    );
  });

  test('removes control characters other than tab from q', () => {
    assert.equal(search('q=a%00b%0Ac%09d%7F').q, 'abc\td');
  });

  test('limits q to 1000 characters', () => {
    assert.equal(search(`q=${'%E6%A4%9C'.repeat(1000)}`).q.length, 1000);
    assert.deepEqual(
      fieldsOf(() => search(`q=${'a'.repeat(1001)}`)),
      ['query.q'],
    );
  });

  test('ignores unknown parameters', () => {
    assert.equal(search('q=x&_=1700000000000&utm_source=mail').q, 'x');
  });

  test('refuses a single-valued parameter given twice', () => {
    assert.deepEqual(
      fieldsOf(() => search('q=a&q=b')),
      ['query.q'],
    );
  });

  describe('sort_by', () => {
    const sortOf = (query: string) => search(query).sort_by;

    test('a field alone is descending', () => {
      assert.deepEqual(search('sort_by=last_modified').sortKeys, [{ field: 'last_modified', order: 'desc' }]);
      assert.deepEqual(sortOf('sort_by=last_modified'), ['last_modified desc']);
    });

    test('field and order, with a space or a +', () => {
      assert.deepEqual(sortOf('sort_by=title+asc'), ['title asc']);
      assert.deepEqual(sortOf('sort_by=title%20asc'), ['title asc']);
    });

    test('comma-separated and repeated entries keep their order', () => {
      assert.deepEqual(sortOf('sort_by=score+desc,click+desc'), ['score desc', 'click desc']);
      assert.deepEqual(sortOf('sort_by=click&sort_by=title+asc,score'), [
        'click desc',
        'title asc',
        'score desc',
      ]);
      assert.deepEqual(search('sort_by=click,title+asc').sortKeys, [
        { field: 'click', order: 'desc' },
        { field: 'title', order: 'asc' },
      ]);
    });

    test('refuses a bad field, a bad order, extra words and a repeated field', () => {
      for (const [query, entry] of [
        ['sort_by=url+desc', 'url desc'],
        ['sort_by=title+up', 'title up'],
        ['sort_by=title+asc+x', 'title asc x'],
        ['sort_by=score,title,score+asc', 'score asc'],
        ['sort_by=score&sort_by=score', 'score'],
      ] as const) {
        const errors = errorsOf(() => search(query));
        assert.equal(errors.length, 1, query);
        assert.equal(errors[0]?.field, 'query.sort_by');
        assert.ok(errors[0]?.reason.includes(JSON.stringify(entry)), errors[0]?.reason);
      }
    });
  });

  describe('numbers', () => {
    test('number_per_page 0..100', () => {
      assert.equal(search('number_per_page=0').number_per_page, 0);
      assert.equal(search('number_per_page=100').number_per_page, 100);
      for (const value of ['101', '-1', 'abc', '1e2', '+1', '%201', '1.0']) {
        const errors = errorsOf(() => search(`number_per_page=${value}`));
        assert.deepEqual(
          errors.map((e) => e.field),
          ['query.number_per_page'],
          value,
        );
      }
      assert.match(errorsOf(() => search('number_per_page=abc'))[0]?.reason ?? '', /must be an integer/);
    });

    test('page_number 1..10000', () => {
      assert.equal(search('page_number=3').page_number, 3);
      assert.equal(search('page_number=10000').page_number, 10000);
      assert.deepEqual(
        fieldsOf(() => search('page_number=0')),
        ['query.page_number'],
      );
      assert.deepEqual(
        fieldsOf(() => search('page_number=10001')),
        ['query.page_number'],
      );
    });

    test('an empty value is the default', () => {
      assert.equal(search('page_number=&number_per_page=').number_per_page, 10);
    });
  });

  describe('doctype', () => {
    test('comma-separated and repeated', () => {
      assert.deepEqual(search('doctype=pdf,doc').doctype, ['pdf', 'doc']);
      assert.deepEqual(search('doctype=pdf&doctype=xls,pdf').doctype, ['pdf', 'xls']);
    });

    test('all among others means all', () => {
      assert.deepEqual(search('doctype=pdf,all').doctype, ['all']);
    });

    test('refuses an unknown value, naming it', () => {
      const errors = errorsOf(() => search('doctype=pdf,exe'));
      assert.equal(errors[0]?.field, 'query.doctype');
      assert.match(errors[0]?.reason ?? '', /"exe"/);
    });
  });

  describe('drilldown', () => {
    test('one value is one tab-joined path', () => {
      assert.deepEqual(search('drilldown=example.com%09docs%09api').drilldown, ['example.com\tdocs\tapi']);
    });

    test('repeated parameters and newlines give several paths', () => {
      assert.deepEqual(search('drilldown=a%09b&drilldown=c&drilldown=d%0Ae%09f').drilldown, [
        'a\tb',
        'c',
        'd',
        'e\tf',
      ]);
    });

    test('drops empty labels, empty paths and duplicates', () => {
      assert.deepEqual(search('drilldown=&drilldown=%09a%09%09b%09&drilldown=a%09b').drilldown, ['a\tb']);
    });

    test('decodes labels in the input encoding', () => {
      assert.deepEqual(search('input_encoding=sjis&drilldown=%8C%9F%8D%F5%09a').drilldown, ['検索\ta']);
    });
  });

  test('category', () => {
    assert.equal(search('category=%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9').category, 'ニュース');
  });

  describe('callback', () => {
    test('accepts identifier paths', () => {
      for (const name of ['jQuery123_456', 'a.b.c', '$', '_cb$1']) {
        assert.equal(search(`callback=${name}`).callback, name);
      }
      assert.equal(search(`callback=${'a'.repeat(128)}`).callback, 'a'.repeat(128));
    });

    test('refuses anything else', () => {
      for (const name of [
        'alert(1)//',
        'a;b',
        '<script>',
        'a'.repeat(129),
        'a..b',
        '1a',
        'a.',
        '.a',
        'a b',
      ]) {
        const query = `callback=${encodeURIComponent(name)}`;
        assert.deepEqual(
          fieldsOf(() => search(query)),
          ['query.callback'],
          name,
        );
      }
    });
  });

  test('collects every error', () => {
    const errors = errorsOf(() =>
      search('number_per_page=101&page_number=0&sort_by=url&doctype=exe&callback=a;b&input_encoding=x'),
    );
    assert.deepEqual(errors.map((e) => e.field).sort(), [
      'query.callback',
      'query.doctype',
      'query.input_encoding',
      'query.number_per_page',
      'query.page_number',
      'query.sort_by',
    ]);
    assert.throws(() => search('number_per_page=abc&page_number=0'), {
      message: 'page_number: must be between 1 and 10000; number_per_page: must be an integer',
    });
  });
});

describe('parseSuggestParameters', () => {
  test('defaults and range', () => {
    assert.deepEqual(parseSuggestParameters('/suggest?q=ab'), {
      q: 'ab',
      input_encoding: 'utf8',
      number_per_suggestion: 10,
      callback: undefined,
    });
    assert.equal(parseSuggestParameters('/suggest?number_per_suggestion=100').number_per_suggestion, 100);
    assert.deepEqual(
      fieldsOf(() => parseSuggestParameters('/suggest?number_per_suggestion=0')),
      ['query.number_per_suggestion'],
    );
  });

  test('decodes q in the input encoding and takes a callback', () => {
    const params = parseSuggestParameters('/suggest?q=%8C%9F&input_encoding=sjis&callback=cb');
    assert.equal(params.q, '検');
    assert.equal(params.callback, 'cb');
  });
});

describe('parseRelatedKeywordsParameters', () => {
  test('reads q and prefix', () => {
    assert.deepEqual(
      parseRelatedKeywordsParameters('/related_keywords?q=%B8%A1&prefix=a&input_encoding=euc-jp'),
      {
        q: '検',
        prefix: 'a',
        input_encoding: 'euc-jp',
        callback: undefined,
      },
    );
  });
});

describe('parseClickParameters', () => {
  test('reads url and q', () => {
    assert.deepEqual(parseClickParameters('/click?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&q=x'), {
      url: 'https://example.com/a?b=1',
      q: 'x',
      input_encoding: 'utf8',
    });
  });

  test('requires an http(s) url', () => {
    assert.deepEqual(
      fieldsOf(() => parseClickParameters('/click?q=x')),
      ['query.url'],
    );
    assert.deepEqual(
      fieldsOf(() => parseClickParameters('/click?url=javascript%3Aalert(1)')),
      ['query.url'],
    );
    assert.deepEqual(
      fieldsOf(() => parseClickParameters('/click?url=%2Frelative')),
      ['query.url'],
    );
  });
});

describe('jsonpBody', () => {
  test('wraps the JSON in the callback', () => {
    assert.equal(jsonpBody('a.b', { ok: 1 }), '/**/a.b({"ok":1});');
    assert.equal(JSONP_CONTENT_TYPE, 'application/javascript; charset=utf-8');
  });

  test('escapes line separators and < so the data cannot break out', () => {
    const body = jsonpBody('cb', { t: 'a\u2028b\u2029c</script><script>alert(1)</script>' });
    assert.equal(
      body,
      '/**/cb({"t":"a\\u2028b\\u2029c\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"});',
    );
    assert.ok(!body.includes('\u2028') && !body.includes('</'));
    const json = body.slice('/**/cb('.length, -');'.length);
    assert.deepEqual(JSON.parse(json), { t: 'a\u2028b\u2029c</script><script>alert(1)</script>' });
  });

  test('refuses a callback that is not an identifier path', () => {
    assert.throws(() => jsonpBody('alert(1)//', {}));
  });
});
