/**
 * Word forms (docs/reference/site-search.md, Word forms) on pages shaped like the PostgreSQL and
 * Python manuals: `triggers` finds the pages that only say `trigger` and the other way round,
 * the form typed ranks first, and names (`pg_stat_activity`, `max_connections`, `os.path.join`,
 * URLs), quoted phrases, exclusions and Japanese find exactly what they found before.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { planQuery } from '../../src/search/engine/query-plan.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { inflectedForms } from '../../src/search/word-forms/inflections.js';
import { indexWordForms } from '../../src/search/word-forms/index-word-forms.js';
import { manualDocument } from '../support/manual-pages.js';
import { queryTreeOf } from '../../src/search/query-tree.js';
import { rankedSearch } from '../support/ranked-search.js';

let folder: string;
let index: SearchIndex;

const PG = 'https://manual.example/docs';
const PY = 'https://python.example/3/';

const plain = (url: string, title: string, body: string): IndexedDocument => ({
  url,
  title,
  description: '',
  body,
});

/** Pages as the manuals write them: most say `trigger`, some `triggers`, one both. */
const PAGES: IndexedDocument[] = [
  manualDocument({
    slug: 'sql-createtrigger',
    title: 'CREATE TRIGGER',
    headings: 'CREATE TRIGGER Synopsis Description Parameters Notes Examples Compatibility',
    bodyWords: 400,
    mentions: [{ text: 'trigger', times: 12 }],
  }),
  manualDocument({
    slug: 'trigger-definition',
    title: 'Chapter 39. Triggers',
    headings: 'Chapter 39. Triggers 39.1. Overview of Trigger Behavior 39.2. Visibility of Data Changes',
    bodyWords: 400,
    mentions: [
      { text: 'triggers', times: 8 },
      { text: 'trigger', times: 6 },
    ],
  }),
  manualDocument({
    slug: 'event-triggers',
    title: 'Chapter 40. Event Triggers',
    headings: 'Chapter 40. Event Triggers 40.1. Overview of Event Trigger Behavior',
    bodyWords: 300,
    mentions: [{ text: 'event triggers', times: 5 }],
  }),
  // Two pages equal but for the form they write: the one with the form typed ranks above.
  manualDocument({
    slug: 'plpgsql-exact',
    title: 'PL/pgSQL Notes',
    headings: 'Notes',
    bodyWords: 200,
    mentions: [{ text: 'triggers', times: 3 }],
  }),
  manualDocument({
    slug: 'plpgsql-other',
    title: 'PL/pgSQL Notes',
    headings: 'Notes',
    bodyWords: 200,
    mentions: [{ text: 'trigger', times: 3 }],
  }),
  // A page writing the word typed more, and one writing it less but in every other form too.
  manualDocument({
    slug: 'sql-push-exact',
    title: 'Stack Notes',
    headings: 'Notes',
    bodyWords: 200,
    mentions: [{ text: 'push', times: 4 }],
  }),
  manualDocument({
    slug: 'sql-push-every-form',
    title: 'Stack Notes',
    headings: 'Notes',
    bodyWords: 200,
    mentions: [
      { text: 'push', times: 3 },
      { text: 'pushed pushes pushing', times: 3 },
    ],
  }),
  manualDocument({
    slug: 'monitoring-stats',
    title: '28.2. The Cumulative Statistics System',
    headings: 'pg_stat_activity View',
    bodyWords: 300,
    mentions: [{ text: 'pg_stat_activity', times: 4 }],
  }),
  manualDocument({
    slug: 'monitoring-other',
    title: '28.3. Viewing Locks',
    headings: 'Locks',
    bodyWords: 300,
    // The words of the name, in another form: not the name.
    mentions: [{ text: 'pg stat activities', times: 2 }],
  }),
  manualDocument({
    slug: 'runtime-config-connection',
    title: '20.3. Connections and Authentication',
    headings: 'max_connections (integer)',
    bodyWords: 300,
    mentions: [{ text: 'max_connections', times: 3 }],
  }),
  manualDocument({
    slug: 'connect-limits',
    title: 'Limits',
    headings: 'Limits',
    bodyWords: 300,
    mentions: [{ text: 'max connection', times: 2 }],
  }),
  plain(
    `${PY}tutorial/datastructures.html`,
    '5. Data Structures',
    'List comprehensions provide a concise way to create lists. Nested list comprehensions.',
  ),
  plain(
    `${PY}reference/expressions.html`,
    '6. Expressions',
    'Displays for lists, sets and dictionaries use a comprehension.',
  ),
  plain(
    `${PY}howto/functional.html`,
    'Functional Programming HOWTO',
    'Generator expressions and list comprehensions.',
  ),
  plain(
    `${PY}library/os.path.html`,
    'os.path — Common pathname manipulations',
    'os.path.join(path, *paths) joins one or more path segments.',
  ),
  plain(`${PY}library/pathlib.html`, 'pathlib', 'The os path joins are replaced by the / operator.'),
  plain(
    `${PY}glossary.html`,
    'Glossary',
    'A university course or the universe; general advice; to generate news and new things.',
  ),
  plain(
    `${PY}ja/tutorial.html`,
    'Python チュートリアル',
    'リスト内包表記はリストを作る簡潔な方法です。トリガーの説明。',
  ),
];

const urls = (query: string) => rankedSearch(index, query, 50).docs.map((doc) => doc.url);
const sorted = (values: readonly string[]) => [...values].sort();
const pg = (slug: string) => `${PG}/${slug}.html`;

before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-word-forms-'));
  index = new SearchIndex(path.join(folder, 'index.db'));
  index.writer.upsert(PAGES, 'test:pages');
});
after(() => {
  index.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('word forms: other forms of a word are found', () => {
  const TRIGGER_PAGES = [
    'event-triggers',
    'plpgsql-exact',
    'plpgsql-other',
    'sql-createtrigger',
    'trigger-definition',
  ].map(pg);

  test('`triggers` finds the pages that only say `trigger`, and `trigger` those that only say `triggers`', () => {
    assert.deepEqual(sorted(urls('triggers')), TRIGGER_PAGES);
    assert.deepEqual(sorted(urls('trigger')), TRIGGER_PAGES);
    assert.deepEqual(sorted(urls('Triggers')), TRIGGER_PAGES, 'a capitalized word is a word');
  });

  test('the form typed ranks above an otherwise equal page with only the other form', () => {
    const triggers = urls('triggers');
    assert.ok(
      triggers.indexOf(pg('plpgsql-exact')) < triggers.indexOf(pg('plpgsql-other')),
      triggers.join(' '),
    );
    const trigger = urls('trigger');
    assert.ok(trigger.indexOf(pg('plpgsql-other')) < trigger.indexOf(pg('plpgsql-exact')), trigger.join(' '));
  });

  test('a page holding the form typed scores by it alone: other forms add nothing to it', () => {
    const found = urls('push');
    assert.deepEqual(found.slice(0, 2), [pg('sql-push-exact'), pg('sql-push-every-form')]);
  });

  test('`comprehension` and `comprehensions` find the same pages, each its own form first', () => {
    const expected = sorted([
      `${PY}tutorial/datastructures.html`,
      `${PY}reference/expressions.html`,
      `${PY}howto/functional.html`,
    ]);
    assert.deepEqual(sorted(urls('comprehension')), expected);
    assert.deepEqual(sorted(urls('comprehensions')), expected);
    assert.equal(urls('comprehension')[0], `${PY}reference/expressions.html`);
    assert.notEqual(urls('comprehensions')[0], `${PY}reference/expressions.html`);
  });

  test('words of several forms in one query each find their forms', () => {
    assert.deepEqual(urls('event trigger'), [pg('event-triggers')]);
    assert.deepEqual(sorted(urls('trigger behaviors')), [pg('event-triggers'), pg('trigger-definition')]);
  });
});

describe('word forms: what is taken as written', () => {
  /** The hits a query has without word forms. */
  const withoutForms = (query: string) => {
    const hits = index.searcher().match(planQuery(queryTreeOf(query)));
    return hits.count;
  };

  test('names find exactly what they found before: pg_stat_activity, max_connections, os.path.join', () => {
    assert.deepEqual(urls('pg_stat_activity'), [pg('monitoring-stats')]);
    assert.deepEqual(urls('max_connections'), [pg('runtime-config-connection')]);
    assert.deepEqual(urls('os.path.join'), [`${PY}library/os.path.html`]);
    for (const query of ['pg_stat_activity', 'max_connections', 'os.path.join'])
      assert.equal(withoutForms(query), urls(query).length, query);
  });

  test('a URL or URL path finds what it found before', () => {
    assert.deepEqual(urls('docs/event-triggers.html'), [pg('event-triggers')]);
    assert.deepEqual(urls('/docs/sql-createtrigger.html'), [pg('sql-createtrigger')]);
    for (const query of ['docs/event-triggers.html', pg('event-triggers'), pg('trigger-definition')])
      assert.equal(withoutForms(query), urls(query).length, query);
  });

  test('a quoted phrase, an exclusion and a name with capitals inside are taken as written', () => {
    assert.deepEqual(urls('"event trigger"'), [pg('event-triggers')]);
    assert.deepEqual(urls('"list comprehension"'), []);
    assert.deepEqual(sorted(urls('comprehension -comprehensions')), [`${PY}reference/expressions.html`]);
    assert.deepEqual(urls('eventTriggers'), []);
  });

  test('Japanese queries find what they found before, with the same scores', () => {
    for (const query of ['内包表記', 'トリガー', 'Python チュートリアル']) {
      const before = index.searcher().match(planQuery(queryTreeOf(query)));
      const now = index
        .searcher()
        .match(planQuery(queryTreeOf(query, undefined, indexWordForms(index.searcher().snapshot))));
      assert.ok(before.count > 0, query);
      assert.deepEqual([...now.score], [...before.score], query);
    }
  });

  test('derivations Porter joins are not forms: university / universe, general / generate, news / new', () => {
    assert.deepEqual(urls('university'), [`${PY}glossary.html`]);
    assert.deepEqual(inflectedForms('university').includes('universe'), false);
    assert.deepEqual(inflectedForms('general').includes('generate'), false);
    assert.deepEqual(inflectedForms('comprehension').includes('comprehensive'), false);
    assert.deepEqual(inflectedForms('news'), []);
    assert.deepEqual(inflectedForms('new').includes('news'), false);
  });

  test('inflections: plurals, -ed, -ing, a final e dropped, a consonant doubled, -ies', () => {
    const has = (word: string, forms: string[]) =>
      forms.forEach((form) => assert.ok(inflectedForms(word).includes(form), `${word}: ${form}`));
    has('trigger', ['triggers', 'triggered', 'triggering']);
    has('create', ['creates', 'created', 'creating']);
    has('creating', ['create', 'creates', 'created']);
    has('stop', ['stops', 'stopped', 'stopping']);
    has('queries', ['query', 'queried', 'querying']);
    has('classes', ['class']);
    assert.deepEqual(inflectedForms('go'), [], 'words of two letters');
    assert.deepEqual(inflectedForms('utf8'), [], 'words with digits');
  });
});
