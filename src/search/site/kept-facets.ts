import type { SearchServiceConfig } from '../../domain/schemas.js';
import type { SearchIndex } from '../search-index.js';
import { type FacetComputation, FacetIndex, type StoredFacetRows } from './facet-index.js';
import { FacetPool } from './facet-pool.js';

/**
 * The index file's rows of facets (docs/design/search-engine.md, Facets off the API thread),
 * written without waiting for another process's write lock: a row is only a saving.
 */
export function facetRowsOf(index: SearchIndex): StoredFacetRows {
  return {
    read: (segmentId, digest) => index.store.facets.read(segmentId, digest),
    write: (segmentId, digest, data) =>
      index.store.withoutWaiting(() => index.store.facets.write(segmentId, digest, data)),
  };
}

/** The URLs a segment's facets are computed from, read from the index file by ordinal. */
export function segmentUrlsOf(index: SearchIndex): FacetComputation['urlsOf'] {
  return (loaded, start, end) =>
    index.store.columns.urls(loaded.segment.id, loaded.segment.docIds, start, end);
}

/**
 * Computes the facets of every segment of `index` under a service's rules, in facet threads of
 * their own, and keeps them in the file: `kumo index` does so once its pages are written, so that
 * the service's first search reads them. Answers why they could not be computed (rules over their
 * time limit), or undefined once they are kept.
 */
export async function keepFacets(
  index: SearchIndex,
  config: SearchServiceConfig,
  owner: string,
): Promise<string | undefined> {
  const pool = new FacetPool();
  let problem: string | undefined;
  try {
    const facets = new FacetIndex(
      { categories: config.categories, drilldowns: config.drilldowns },
      {
        pool,
        owner,
        onUnavailable: (reason) => (problem = reason),
        stored: facetRowsOf(index),
        urlsOf: segmentUrlsOf(index),
      },
    );
    await facets.ready(index.searcher().snapshot.segments);
    return problem;
  } finally {
    await pool.close();
  }
}
