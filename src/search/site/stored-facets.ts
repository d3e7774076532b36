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

/**
 * A segment's facets as searches read them: each distinct label path once, documents pointing at
 * them, all in typed arrays, so that a segment of a million pages is a few arrays, not a million
 * small ones.
 */
export interface CompactFacets {
  categoryNames: string[];
  /** Category indexes of document d: `categories[categoryStart[d] .. categoryStart[d + 1]]`. */
  categoryStart: Uint32Array;
  categories: Uint16Array;
  /** Distinct label paths (labels joined by a tab). */
  table: string[];
  /** Paths of document d: `table[pathIds[pathStart[d] .. pathStart[d + 1]]]`. */
  pathStart: Uint32Array;
  pathIds: Uint32Array;
}

/** The facet jobs' results of a segment (joinResults) with each distinct path once. */
export function compactFacets(result: FacetJobResult): CompactFacets {
  const table: string[] = [];
  const idOf = new Map<string, number>();
  const pathStart = new Uint32Array(result.paths.length + 1);
  const pathIds: number[] = [];
  result.paths.forEach((documentPaths, document) => {
    pathStart[document] = pathIds.length;
    for (const path of documentPaths) {
      let id = idOf.get(path);
      if (id === undefined) {
        id = table.push(path) - 1;
        idOf.set(path, id);
      }
      pathIds.push(id);
    }
  });
  pathStart[result.paths.length] = pathIds.length;
  return {
    categoryNames: result.categoryNames,
    categoryStart: result.categoryStart,
    categories: result.categories,
    table,
    pathStart,
    pathIds: Uint32Array.from(pathIds),
  };
}

/**
 * A stored row: magic and version, the length of a JSON header (the documents' digest, category
 * names and path table), the header, then the counts and arrays as they lie in memory (this
 * platform's byte order, checked by the magic), each 4-byte aligned. Reading it is a few copies,
 * whatever the number of documents.
 */
const FACETS_MAGIC = 0x4b464354;
const FORM_VERSION = 2;
const SAME_BYTE_ORDER = new Uint8Array(new Uint32Array([FACETS_MAGIC]).buffer);

interface StoredHeader {
  documents: string;
  names: string[];
  table: string[];
}

const aligned = (bytes: number) => (bytes + 3) & ~3;

export function encodeFacets(facets: CompactFacets, documentsDigest: string): Buffer {
  const header: StoredHeader = {
    documents: documentsDigest,
    names: facets.categoryNames,
    table: facets.table,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const arrays = [facets.categoryStart, facets.pathStart, facets.pathIds, facets.categories];
  const at = 12 + aligned(headerBytes.length);
  const size = arrays.reduce((sum, array) => sum + aligned(array.byteLength), at + 12);
  const data = Buffer.alloc(size);
  Buffer.from(SAME_BYTE_ORDER).copy(data, 0);
  data.writeUInt32LE(FORM_VERSION, 4);
  data.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(data, 12);
  data.writeUInt32LE(facets.categoryStart.length - 1, at);
  data.writeUInt32LE(facets.pathIds.length, at + 4);
  data.writeUInt32LE(facets.categories.length, at + 8);
  let offset = at + 12;
  for (const array of arrays) {
    Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(data, offset);
    offset += aligned(array.byteLength);
  }
  return data;
}

/**
 * A stored row's facets for `count` documents of this digest (documentsDigestOf); undefined when the
 * row was computed for other documents, written in another form or byte order, or does not fit.
 */
export function decodeFacets(
  data: Buffer,
  count: number,
  documentsDigest: string,
): CompactFacets | undefined {
  if (
    data.length < 24 ||
    !data.subarray(0, 4).equals(SAME_BYTE_ORDER) ||
    data.readUInt32LE(4) !== FORM_VERSION
  )
    return undefined;
  const headerLength = data.readUInt32LE(8);
  const at = 12 + aligned(headerLength);
  if (data.length < at + 12) return undefined;
  let header: StoredHeader;
  try {
    header = JSON.parse(data.toString('utf8', 12, 12 + headerLength)) as StoredHeader;
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  if (header.documents !== documentsDigest || data.readUInt32LE(at) !== count) return undefined;
  const pathIdCount = data.readUInt32LE(at + 4);
  const categoryCount = data.readUInt32LE(at + 8);
  const arraysBytes = aligned((count + 1) * 4) * 2 + aligned(pathIdCount * 4) + aligned(categoryCount * 2);
  if (at + 12 + arraysBytes !== data.length) return undefined;
  let offset = at + 12;
  const read = <T extends Uint32Array | Uint16Array>(array: T): T | undefined => {
    if (offset + array.byteLength > data.length) return undefined;
    // Copied out: SQLite's bytes need not be aligned for a typed array's view.
    data.copy(Buffer.from(array.buffer), 0, offset, offset + array.byteLength);
    offset += aligned(array.byteLength);
    return array;
  };
  const categoryStart = read(new Uint32Array(count + 1));
  const pathStart = read(new Uint32Array(count + 1));
  const pathIds = read(new Uint32Array(pathIdCount));
  const categories = read(new Uint16Array(categoryCount));
  if (
    categoryStart === undefined ||
    pathStart === undefined ||
    pathIds === undefined ||
    categories === undefined
  )
    return undefined;
  const facets = {
    categoryNames: header.names,
    categoryStart,
    categories,
    table: header.table,
    pathStart,
    pathIds,
  };
  return offset === data.length && fits(facets) ? facets : undefined;
}

/** Whether a row's arrays point inside each other, and its names and paths are strings. */
function fits(facets: CompactFacets): boolean {
  const { categoryNames, categoryStart, categories, table, pathStart, pathIds } = facets;
  if (!Array.isArray(categoryNames) || !Array.isArray(table)) return false;
  if (![...categoryNames, ...table].every((text) => typeof text === 'string')) return false;
  const ascendingTo = (starts: Uint32Array, end: number) => {
    if (starts[0] !== 0 || starts[starts.length - 1] !== end) return false;
    for (let at = 1; at < starts.length; at += 1) if (starts[at]! < starts[at - 1]!) return false;
    return true;
  };
  if (!ascendingTo(categoryStart, categories.length) || !ascendingTo(pathStart, pathIds.length)) return false;
  for (const id of pathIds) if (id >= table.length) return false;
  for (const category of categories) if (category >= categoryNames.length) return false;
  return true;
}
