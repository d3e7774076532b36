import { createHash } from 'node:crypto';
import { docIdsDigest } from '../storage/segment-columns.js';
import type { FacetJobResult } from './facet-job.js';

/**
 * How facets are computed from URLs (facet-job.ts, facet-rules.ts): part of every stored row's
 * name, raised whenever the same rules and URLs would give other facets, so that rows stored by
 * another version are computed again rather than read.
 */
const FACETS_VERSION = 1;

/** Names a rule set's stored facets (docs/design/search-engine.md, Facets off the API thread). */
export function rulesDigestOf(rulesKey: string): Buffer {
  return createHash('sha256').update(`${FACETS_VERSION}\n${rulesKey}`).digest().subarray(0, 16);
}

/**
 * Names the documents a segment's facets were computed for (their ids by ordinal): a row is read
 * only for the same documents, so it stays right whatever happened to the segment's id, and an
 * open reads no URL. A segment's documents never change; one replaced or removed since is deleted
 * there, and its facets are never asked for.
 */
export function documentsDigestOf(docIds: Uint32Array): string {
  return docIdsDigest(docIds).toString('hex');
}

/** The results of a segment's jobs, in order, as one result for all of its URLs. */
export function joinResults(results: readonly FacetJobResult[]): FacetJobResult {
  const count = results.reduce((sum, result) => sum + result.paths.length, 0);
  const categoryStart = new Uint32Array(count + 1);
  const categories: number[] = [];
  const paths: string[][] = [];
  for (const result of results) {
    result.paths.forEach((documentPaths, position) => {
      categoryStart[paths.length] = categories.length;
      for (let at = result.categoryStart[position]!; at < result.categoryStart[position + 1]!; at += 1)
        categories.push(result.categories[at]!);
      paths.push(documentPaths);
    });
  }
  categoryStart[count] = categories.length;
  return {
    ok: true,
    categoryNames: results[0]?.categoryNames ?? [],
    categoryStart,
    categories: Uint16Array.from(categories),
    paths,
  };
}

/** A stored row's form: each distinct label path once, documents pointing at them. */
interface StoredForm {
  /** documentsDigestOf the documents they were computed for. */
  documents: string;
  names: string[];
  categoryStart: number[];
  categories: number[];
  /** Distinct label paths. */
  table: string[];
  /** Paths of document d: `table[pathIds[pathStart[d] .. pathStart[d + 1]]]`. */
  pathStart: number[];
  pathIds: number[];
}

export function encodeFacets(result: FacetJobResult, documentsDigest: string): Buffer {
  const table: string[] = [];
  const idOf = new Map<string, number>();
  const pathStart = [0];
  const pathIds: number[] = [];
  for (const documentPaths of result.paths) {
    for (const path of documentPaths) {
      let id = idOf.get(path);
      if (id === undefined) {
        id = table.push(path) - 1;
        idOf.set(path, id);
      }
      pathIds.push(id);
    }
    pathStart.push(pathIds.length);
  }
  const form: StoredForm = {
    documents: documentsDigest,
    names: result.categoryNames,
    categoryStart: Array.from(result.categoryStart),
    categories: Array.from(result.categories),
    table,
    pathStart,
    pathIds,
  };
  return Buffer.from(JSON.stringify(form), 'utf8');
}

/**
 * A stored row's facets for `count` documents of this digest (documentsDigestOf); undefined when the
 * row was computed for other documents or does not fit them.
 */
export function decodeFacets(
  data: Buffer,
  count: number,
  documentsDigest: string,
): FacetJobResult | undefined {
  let form: StoredForm;
  try {
    form = JSON.parse(data.toString('utf8')) as StoredForm;
  } catch {
    return undefined;
  }
  if (form.documents !== documentsDigest || !fits(form, count)) return undefined;
  const paths: string[][] = [];
  for (let document = 0; document < count; document += 1) {
    const documentPaths: string[] = [];
    for (let at = form.pathStart[document]!; at < form.pathStart[document + 1]!; at += 1)
      documentPaths.push(form.table[form.pathIds[at]!]!);
    paths.push(documentPaths);
  }
  return {
    ok: true,
    categoryNames: form.names,
    categoryStart: Uint32Array.from(form.categoryStart),
    categories: Uint16Array.from(form.categories),
    paths,
  };
}

/** Whether a row's arrays describe `count` documents and point inside each other. */
function fits(form: StoredForm, count: number): boolean {
  const arrays = [form.names, form.categoryStart, form.categories, form.table, form.pathStart, form.pathIds];
  if (!arrays.every(Array.isArray)) return false;
  if (form.pathStart.length !== count + 1 || form.categoryStart.length !== count + 1) return false;
  if (form.pathStart[count] !== form.pathIds.length || form.categoryStart[count] !== form.categories.length)
    return false;
  const ascending = (starts: number[]) => starts.every((start, at) => at === 0 || start >= starts[at - 1]!);
  if (form.pathStart[0] !== 0 || form.categoryStart[0] !== 0) return false;
  if (!ascending(form.pathStart) || !ascending(form.categoryStart)) return false;
  return (
    form.pathIds.every((id) => Number.isInteger(id) && id >= 0 && id < form.table.length) &&
    form.table.every((path) => typeof path === 'string') &&
    form.categories.every(
      (category) => Number.isInteger(category) && category >= 0 && category < form.names.length,
    )
  );
}
