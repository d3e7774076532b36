/**
 * Definitions in table rows (docs/design/search-engine.md, Search engine): a function reference that
 * defines one function a row, its name as code starting the row, shaped like a database
 * manual's function tables, against a shorter page that uses the function.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pageTextOf } from '../../src/search/html-text.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { manualDocument, otherManualPages } from '../support/manual-pages.js';
import { rankedSearch } from '../support/ranked-search.js';

let folder: string;
before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-table-definitions-'));
});
after(() => rmSync(folder, { recursive: true, force: true }));

const urlOf = (slug: string) => `https://manual.example/docs/${slug}.html`;

function documentOf(slug: string, html: string): IndexedDocument {
  const text = pageTextOf(html);
  return { url: urlOf(slug), ...text };
}

const page = (title: string, main: string) =>
  `<html><head><title>${title}</title></head><body><h1>${title}</h1>${main}</body></html>`;

/** One row of a function table as the manual writes it: signature paragraph, then what it does. */
const functionRow = (name: string) =>
  `<tr><td class="func_table_entry"><p class="func_signature"><a id="${name}"></a>` +
  `<code class="function">${name}</code> ( <em class="parameter"><code>role</code></em> ` +
  `<code class="type">oid</code> ) → <code class="returnvalue">name</code></p>` +
  `<p>Returns the name of the object of the given OID from the system catalogs.</p></td></tr>`;

describe('headings of a page with tables', () => {
  test('hold the code that starts the first cell of a row, not mentions', () => {
    const text = pageTextOf(
      page(
        'Functions',
        '<table><tr><th>Function</th><th>Description</th></tr>' +
          '<tr><td><code>lower</code>(<code>text</code>)</td><td>Converts to <code>lowercase</code></td></tr>' +
          '<tr><td>Use <code>upper</code> instead</td><td><code>text</code></td></tr>' +
          '<tr><td><code>SELECT a, b FROM some_table WHERE a &gt; 1</code></td><td>an example</td></tr>' +
          '</table><p>See <code>initcap</code>.</p>',
      ),
    );
    assert.deepEqual(text.headings.split('\n'), ['Functions', 'lower']);
    // The row's text stays in the body once.
    assert.equal(text.body.match(/lower/g)?.length, 2);
  });
});

describe('a function defined in a row of a long reference table', () => {
  let index: SearchIndex;
  before(() => {
    const functions = Array.from({ length: 150 }, (_, n) => `pg_function_number${n}`);
    functions.splice(75, 0, 'pg_get_userbyid');
    const reference = page(
      '9.26. System Information Functions and Operators',
      `<p>The functions below return information about the system.</p>` +
        `<table><tr><th>Function</th></tr>${functions.map(functionRow).join('')}</table>`,
    );
    // A shorter page of examples calling the function once, as the manual's loop example does.
    const examples = page(
      '43.6. Control Structures',
      Array.from(
        { length: 80 },
        (_, n) =>
          `<p>Example ${n}: the loop selects rows and calls ${n === 40 ? 'pg_get_userbyid' : 'format'}(owner) ` +
          `to print the owner of each object, then returns the value to the caller.</p>`,
      ).join(''),
    );
    index = new SearchIndex(path.join(folder, 'functions.db'));
    index.writer.upsert(
      [
        documentOf('functions-info', reference),
        documentOf('plpgsql-control-structures', examples),
        ...otherManualPages(40).map(manualDocument),
      ],
      'bundle:test',
    );
  });
  after(() => index.close());

  test('ranks the page defining it first', () => {
    const ranked = rankedSearch(index, 'pg_get_userbyid', 10).docs.map((doc) => doc.url);
    assert.equal(ranked[0], urlOf('functions-info'));
  });
});
