import { createHash } from 'node:crypto';
import { docIdsDigest } from '../storage/segment-columns.js';
import { GrowableUint32Array } from '../../util/index.js';
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

/**
 * A segment's facets built from its jobs' results in ordinal order (facet-job.ts): each result is
 * folded in as it comes, each distinct path kept once, so that what grows with the segment is the
 * typed arrays of CompactFacets, never a string or an array per document.
 */
export class FacetsBuilder {
  private categoryNames: string[] = [];
  private readonly categoryStart: Uint32Array;
  private readonly categories = new GrowableUint32Array();
  private readonly table: string[] = [];
  private readonly idOf = new Map<string, number>();
  private readonly pathStart: Uint32Array;
  private readonly pathIds = new GrowableUint32Array();
  private documents = 0;

  constructor(private readonly documentCount: number) {
    this.categoryStart = new Uint32Array(documentCount + 1);
    this.pathStart = new Uint32Array(documentCount + 1);
  }

  /** The result of the job of the ordinals after those added so far. */
  add(result: FacetJobResult): void {
    if (this.documents + result.paths.length > this.documentCount)
      throw new Error(`facet results for more than the segment's ${this.documentCount} documents`);
    this.categoryNames = result.categoryNames;
    for (let position = 0; position < result.paths.length; position += 1) {
      this.categoryStart[this.documents] = this.categories.length;
      this.pathStart[this.documents] = this.pathIds.length;
      for (let at = result.categoryStart[position]!; at < result.categoryStart[position + 1]!; at += 1)
        this.categories.push(result.categories[at]!);
      for (const path of result.paths[position]!) this.pathIds.push(this.pathIdOf(path));
      this.documents += 1;
    }
  }

  finish(): CompactFacets {
    if (this.documents !== this.documentCount)
      throw new Error(`facet results for ${this.documents} of the segment's ${this.documentCount} documents`);
    this.categoryStart[this.documents] = this.categories.length;
    this.pathStart[this.documents] = this.pathIds.length;
    return {
      categoryNames: this.categoryNames,
      categoryStart: this.categoryStart,
      categories: Uint16Array.from(this.categories.view()),
      table: this.table,
      pathStart: this.pathStart,
      pathIds: this.pathIds.toArray(),
    };
  }

  private pathIdOf(path: string): number {
    let id = this.idOf.get(path);
    if (id === undefined) {
      id = this.table.push(path) - 1;
      this.idOf.set(path, id);
    }
    return id;
  }
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
