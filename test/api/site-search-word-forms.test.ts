/**
 * Word forms through the site search API (docs/reference/site-search.md, Word forms): a page
 * found through another form of a query word has that form highlighted, and a word that found
 * pages through its forms gets no did-you-mean, while a misspelt word still does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IndexedDocument } from '../../src/search/index.js';
import {
  docPath,
  highlighted,
  HttpClient,
  queryOf,
  type SearchAnswer,
  seedSearchIndex,
} from '../support/search-fixtures.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const SITE = 'https://manual.example/docs';

const page = (slug: string, title: string, body: string): IndexedDocument => ({
  url: `${SITE}/${slug}.html`,
  title,
  description: '',
  body,
});

const PAGES: IndexedDocument[] = [
  page(
    'sql-createtrigger',
    'CREATE TRIGGER',
    'CREATE TRIGGER creates a new trigger. The trigger will be associated with the specified table.',
  ),
  page(
    'trigger-definition',
    'Chapter 39. Triggers',
    'Triggers can be attached to tables, views and foreign tables.',
  ),
  // `cast` on two pages, `costs` (one letter away from `casts`) on many.
  page('sql-createcast', 'CREATE CAST', 'CREATE CAST defines a new cast from one data type to another.'),
  page('typeconv', 'Type Conversion', 'An explicit cast converts a value to another type.'),
  // A misspelling on one page whose form (`tomatoe` + s) is the plural of the common word.
  page('seed-swap', 'Seed swap', 'Bring tomatoe seeds to the swap.'),
  page('balcony', 'Growing tomatoes on a balcony', 'Tomatoes need sun.'),
  ...Array.from({ length: 12 }, (_, number) =>
    page(`tomato-${number}`, `Tomato ${number}`, 'A tomato plant.'),
  ),
  ...Array.from({ length: 12 }, (_, number) =>
    page(`planner-${number}`, `Planner Notes ${number}`, 'The planner estimates the costs of each plan.'),
  ),
];

let service: TestService;
let http: HttpClient;

before(async () => {
  service = await startTestService();
  seedSearchIndex(service.dataDir, 1, PAGES);
  http = new HttpClient(service.url);
});

after(async () => {
  await http.close();
  await service.close();
});

async function search(q: string): Promise<SearchAnswer> {
  return http.json<SearchAnswer>(`${docPath(1)}/search?${queryOf({ q })}`);
}

describe('word forms through the site search API', () => {
  test('`triggers` finds the page that only says `trigger` and highlights its `trigger`', async () => {
    const answer = await search('triggers');
    assert.equal(answer.organic.hits, 2);
    assert.equal(answer.organic.docs[0]!.url, `${SITE}/trigger-definition.html`, 'the form typed first');
    const other = answer.organic.docs[1]!;
    assert.equal(other.url, `${SITE}/sql-createtrigger.html`);
    assert.deepEqual(highlighted(other.highlight.title_parts), ['TRIGGER']);
    assert.deepEqual(highlighted(other.highlight.document_text_parts), ['TRIGGER', 'trigger', 'trigger']);
    const exact = answer.organic.docs[0]!;
    assert.deepEqual(highlighted(exact.highlight.title_parts), ['Triggers']);
  });

  test('a word that found pages through its forms gets no did-you-mean', async () => {
    const answer = await search('casts');
    assert.equal(answer.organic.hits, 2, 'the pages that say `cast`');
    assert.equal(answer.spellcheck.main_phrase, '', 'not `costs`, although more pages say it');
  });

  test('such a word is still respelt: `tomatoe`, which finds `tomatoes`, gets `tomato`', async () => {
    const answer = await search('tomatoe');
    assert.equal(answer.organic.hits, 2);
    assert.equal(answer.spellcheck.main_phrase, 'tomato');
  });

  test('a misspelt word, whose forms the index lacks, still gets one', async () => {
    const answer = await search('trigers');
    assert.equal(answer.organic.hits, 0);
    assert.equal(answer.spellcheck.main_phrase, 'triggers');
  });
});
