/**
 * The published declaration file of the typed client (dist/web/kumo-search-client.d.ts, served at
 * /widget/v1/kumo-search-client.d.ts; docs/reference/widget.md, Typed client) is usable by a
 * TypeScript consumer with strict options: a program using the client and its answer types
 * compiles without a diagnostic, and misuses (a misspelt field, a wrong type, an unknown
 * transport) are compile errors.
 */
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { makeTempDir } from '../support/service-harness.js';

const DECLARATIONS = fileURLToPath(new URL('../../web/kumo-search-client.d.ts', import.meta.url));
const TYPE_ROOTS = fileURLToPath(new URL('../../../node_modules/@types/', import.meta.url));

/** What a demanding consumer turns on. */
const STRICT: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noUnusedLocals: true,
  noEmit: true,
  // The declaration file is checked; TypeScript's own lib files are taken as they are.
  skipLibCheck: false,
  skipDefaultLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};
const BROWSER: ts.CompilerOptions = { ...STRICT, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
const NODE: ts.CompilerOptions = {
  ...STRICT,
  lib: ['lib.es2022.d.ts'],
  types: ['node'],
  typeRoots: [TYPE_ROOTS],
};

const CONSUMER = `
import {
  SiteSearchClient,
  SiteSearchError,
  parseServiceRef,
  type FacetDrillDown,
  type FacetDrillDownRoot,
  type HighlightPart,
  type OrganicDoc,
  type RelatedKeywordsResponse,
  type SearchQuery,
  type SearchResponse,
  type SiteSearchErrorKind,
  type SuggestResponse,
  type Transport,
} from './kumo-search-client.js';

const transport: Transport = 'auto';
const client = new SiteSearchClient({
  baseUrl: 'https://search.example.com/api/v1.0/finder_service',
  service: '1/1/1',
  transport,
});
const byIds = new SiteSearchClient({ baseUrl: '/api/v1.0/finder_service', service: parseServiceRef('2/3/4') });

function marked(parts: readonly HighlightPart[]): string {
  return parts.map((part) => (part.is_highlighted ? '[' + part.text + ']' : part.text)).join('');
}

function countAll(level: FacetDrillDown): number {
  return level.count + (level.children ?? []).reduce((sum, child) => sum + countAll(child), 0);
}

export async function run(signal: AbortSignal): Promise<string[]> {
  const query: SearchQuery = { q: 'python', page: 2, perPage: 20, sortBy: ['last_modified desc'], doctype: ['pdf', 'html'] };
  const answer: SearchResponse = await client.search(query, { signal });
  const docs: OrganicDoc[] = answer.organic.docs;
  const first = docs[0];
  const titles = docs.map((doc) => marked(doc.highlight.title_parts) + ' ' + doc.url + ' ' + doc.doctype);
  const roots: FacetDrillDownRoot[] = answer.facet_drilldown_roots;
  const counted = roots.flatMap((root) => root.facet_drilldowns).reduce((sum, level) => sum + countAll(level), 0);
  const hits: number = answer.organic.hits;
  const correction: string = answer.spellcheck.main_phrase;
  const categories: string[] = answer.category.items;
  const suggest: SuggestResponse = await byIds.suggest('pyth', { count: 5, signal });
  const related: RelatedKeywordsResponse = await client.relatedKeywords('python', { prefix: 'py' });
  if (first !== undefined) client.reportClick(first.url, 'python');
  const click: string = client.clickUrl('https://www.example.com/', 'python');
  let failure: SiteSearchErrorKind | undefined;
  try {
    await client.search({ q: '' });
  } catch (error) {
    if (error instanceof SiteSearchError) {
      failure = error.kind;
      const fields: string[] = error.fields.map((field) => field.field + ': ' + field.reason);
      if (error.kind === 'origin' && error.status === 403) fields.push(error.message);
    }
  }
  return [
    ...titles,
    String(counted + hits),
    correction,
    ...categories,
    ...suggest.suggestions.map((entry) => entry.word + entry.point.toFixed(2)),
    ...related.related_keywords.map((entry) => entry.word),
    click,
    failure ?? 'none',
    client.transport,
  ];
}
`;

/** Misuses and the diagnostic each must produce. */
const MISUSES: { name: string; code: string; message: RegExp }[] = [
  {
    name: 'a misspelt field of a result',
    code: 'const doc: OrganicDoc = (await client.search({ q: "x" })).organic.docs[0]!; doc.titel;',
    message: /Property 'titel' does not exist.*Did you mean 'title'/,
  },
  {
    name: 'a result read without checking the index (noUncheckedIndexedAccess)',
    code: 'const title: string = (await client.search({ q: "x" })).organic.docs[0].title;',
    message: /possibly 'undefined'/,
  },
  {
    name: 'a string where the answer has a number',
    code: 'const hits: string = (await client.search({ q: "x" })).organic.hits;',
    message: /Type 'number' is not assignable to type 'string'/,
  },
  {
    name: 'a query without q',
    code: 'await client.search({ query: "x" });',
    message: /'query' does not exist in type 'SearchQuery'|Property 'q' is missing/,
  },
  {
    name: 'an unknown transport',
    code: 'new SiteSearchClient({ baseUrl: "/", service: "1/1/1", transport: "websocket" });',
    message: /"websocket"' is not assignable to type 'Transport/,
  },
  {
    name: 'an unknown error kind',
    code: 'const error = new SiteSearchError("network", "x"); if (error.kind === "forbidden") {}',
    message: /no overlap/,
  },
  {
    name: 'a drill-down level missing its count',
    code: 'const level: FacetDrillDown = { depth: 1, title: "t", path: "t", is_selected: false, is_opened: false };',
    message: /Property 'count' is missing/,
  },
  {
    name: 'an unknown document type filter',
    code: 'await client.search({ q: "x", doctype: ["mp4"] });',
    message: /"mp4"' is not assignable to type 'DoctypeFilter'/,
  },
];

let folder: string;
/** The last program of each option set, whose unchanged files the next one reuses. */
const previous = new Map<ts.CompilerOptions, ts.Program>();

before(async () => {
  folder = await makeTempDir('kumo-client-types-');
  copyFileSync(DECLARATIONS, path.join(folder, 'kumo-search-client.d.ts'));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The diagnostics of compiling `source` as consumer.ts next to the declaration file. */
function diagnosticsOf(source: string, options: ts.CompilerOptions, name = 'consumer.ts'): string[] {
  const file = path.join(folder, name);
  writeFileSync(file, source);
  const program = ts.createProgram([file], options, undefined, previous.get(options));
  previous.set(options, program);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${path.basename(diagnostic.file.fileName)}: ` : '';
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('the published client declarations', () => {
  test('a consumer using the client and its answer types compiles with strict options for the browser', () => {
    assert.deepEqual(diagnosticsOf(CONSUMER, BROWSER), []);
  });

  test('the same consumer compiles for Node (fetch and AbortSignal from @types/node, no DOM lib)', () => {
    assert.deepEqual(diagnosticsOf(CONSUMER, NODE, 'node-consumer.ts'), []);
  });

  for (const misuse of MISUSES) {
    test(`a misuse fails to compile: ${misuse.name}`, () => {
      const source = `${CONSUMER}\nexport async function misuse(): Promise<void> {\n  ${misuse.code}\n}\n`;
      const diagnostics = diagnosticsOf(source, BROWSER, 'misuse.ts');
      assert.ok(diagnostics.length > 0, 'compiled without an error');
      assert.ok(
        diagnostics.some((diagnostic) => misuse.message.test(diagnostic)),
        diagnostics.join('\n'),
      );
      // The error is in the consumer's code, never in the declaration file.
      assert.ok(
        diagnostics.every((diagnostic) => diagnostic.startsWith('misuse.ts: ')),
        diagnostics.join('\n'),
      );
    });
  }
});
