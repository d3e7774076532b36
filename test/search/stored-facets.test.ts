/**
 * The stored form of a segment's facets (docs/design/search-engine.md, Facets off the API
 * thread): typed arrays read back as written, and only for the documents and count they were
 * written for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentPaths, visitDocumentNodes } from '../../src/search/site/facet-index.js';
import type { FacetJobResult } from '../../src/search/site/facet-job.js';
import {
  type CompactFacets,
  decodeFacets,
  documentsDigestOf,
  encodeFacets,
  FacetsBuilder,
} from '../../src/search/site/stored-facets.js';

const result = {
  ok: true as const,
  categoryNames: ['Guides', 'Reference'],
  categoryStart: Uint32Array.from([0, 1, 3, 3]),
  categories: Uint16Array.from([0, 0, 1]),
  paths: [['Docs\tGuides'], ['Docs\tGuides', 'Docs\tAPI\tCore'], []],
};

function compactFacets(...results: FacetJobResult[]): CompactFacets {
  const builder = new FacetsBuilder(results.reduce((sum, one) => sum + one.paths.length, 0));
  for (const one of results) builder.add(one);
  return builder.finish();
}

test('a segment keeps each distinct path once, its documents pointing at them', () => {
  const facets = compactFacets(result);
  assert.deepEqual(facets.table, ['Docs\tGuides', 'Docs\tAPI\tCore']);
  assert.deepEqual([...facets.pathStart], [0, 1, 3, 3]);
  assert.deepEqual([...facets.pathIds], [0, 0, 1]);
});

test("a segment's jobs fold into the facets of all its documents, in order", () => {
  const second = {
    ok: true as const,
    categoryNames: ['Guides', 'Reference'],
    categoryStart: Uint32Array.from([0, 2, 2]),
    categories: Uint16Array.from([1, 0]),
    paths: [['Docs\tAPI\tCore', 'Docs\tFAQ'], ['Docs\tGuides']],
  };
  const facets = compactFacets(result, second);
  assert.deepEqual(facets.categoryNames, ['Guides', 'Reference']);
  assert.deepEqual([...facets.categoryStart], [0, 1, 3, 3, 5, 5]);
  assert.deepEqual([...facets.categories], [0, 0, 1, 1, 0]);
  assert.deepEqual(facets.table, ['Docs\tGuides', 'Docs\tAPI\tCore', 'Docs\tFAQ']);
  assert.deepEqual([...facets.pathStart], [0, 1, 3, 3, 5, 6]);
  assert.deepEqual([...facets.pathIds], [0, 0, 1, 1, 2, 0]);
  assert.deepEqual(documentPaths({ ...facets, pathNodes: [] }, 3), ['Docs\tAPI\tCore', 'Docs\tFAQ']);
});

test('results for more or fewer documents than the segment holds are refused', () => {
  const short = new FacetsBuilder(4);
  short.add(result);
  assert.throws(() => short.finish(), /3 of the segment's 4 documents/);
  assert.throws(() => new FacetsBuilder(2).add(result), /more than the segment's 2 documents/);
});

test('a stored row reads back as written, only for its documents and their count', () => {
  const facets = compactFacets(result);
  const digest = documentsDigestOf(Uint32Array.from([7, 8, 9]));
  const data = encodeFacets(facets, digest);
  // Read from an unaligned copy, as SQLite may hand it over.
  const unaligned = Buffer.concat([Buffer.alloc(1), data]).subarray(1);
  assert.deepEqual(decodeFacets(unaligned, 3, digest), facets);
  assert.equal(decodeFacets(data, 3, documentsDigestOf(Uint32Array.from([7, 9, 8]))), undefined);
  assert.equal(decodeFacets(data, 2, digest), undefined);
  assert.equal(decodeFacets(data.subarray(0, data.length - 2), 3, digest), undefined);
  const other = encodeFacets({ ...facets, categories: Uint16Array.from([0, 0, 2]) }, digest);
  assert.equal(decodeFacets(other, 3, digest), undefined, 'a category past the names');
});

test("a document's drill-down nodes are those of its paths, a level they share counted once", () => {
  const facets = {
    ...compactFacets(result),
    // Docs (0) > Guides (1); Docs (0) > API (2) > Core (3).
    pathNodes: [Uint32Array.from([0, 1]), Uint32Array.from([0, 2, 3])],
  };
  const nodesOf = (ordinal: number) => {
    const nodes: number[] = [];
    visitDocumentNodes(facets, ordinal, (node) => nodes.push(node));
    return nodes;
  };
  assert.deepEqual(nodesOf(0), [0, 1]);
  assert.deepEqual(nodesOf(1), [0, 1, 2, 3]);
  assert.deepEqual(nodesOf(2), []);
  assert.deepEqual(documentPaths(facets, 1), ['Docs\tGuides', 'Docs\tAPI\tCore']);
  assert.deepEqual(documentPaths(facets, 2), []);
});
