import type { SearchIndexStore } from './storage/search-index-store.js';
import { analyzeDocumentFields } from './document-fields.js';
import { displayHeadOf, headHolds } from './display-head.js';
import type { AnalyzedDocument } from './engine/segment-builder.js';
import { mainTextKeyOf } from './main-text-key.js';
import { pageHostOf, type TemplateBlocks } from './template-blocks.js';
import { holdsAnyBlock, withoutTemplateLines } from './template-split.js';
import type { AnalyzedText } from './analyzer.js';

/** Where a document's current version is indexed, to be marked deleted when it is indexed again. */
export interface IndexedPlace {
  segmentId: number;
  ordinal: number;
}

/**
 * Documents split again are handed to be written this many at a time (a segment each), or
 * sooner once their text holds RESPLIT_CHUNK_CHARS: their analysis (a string per token) takes
 * several times their text, and a pass-end re-split of a large site sends back most of its pages.
 */
export const RESPLIT_CHUNK = 500;
const RESPLIT_CHUNK_CHARS = 2 * 1024 * 1024;
/** A host's documents are read this many at a time, each with its text. */
const RESPLIT_READ_PAGE = 100;

/**
 * A batch's analyzed fields with each document's template lines left out, by the template of
 * its host as the counts stand (the batch's own rows counted): docs/reference/site-search.md,
 * Page templates.
 */
export function splitBatch(
  documents: readonly { docId: number; url: string; fields: readonly AnalyzedText[] }[],
  blocks: TemplateBlocks,
): AnalyzedDocument[] {
  return documents.map(({ docId, url, fields }) => ({
    docId,
    fields: withoutTemplateLines(fields, blocks.get(pageHostOf(url))),
  }));
}

/**
 * Inside a write transaction: the documents to index again because a line they hold became
 * template, or stopped being, since their host's documents were last split, handed to `write`
 * RESPLIT_CHUNK at a time (fewer when their text is long) with the places of their current
 * versions. A host's documents are read a page at a time, so neither they nor their analysis are
 * held whole. Documents of `exclude` were just split with the current counts, or are about to
 * be. Records the current sets as applied, and stores the new display heads of the documents
 * split again.
 */
export function resplitChanged(
  store: SearchIndexStore,
  exclude: ReadonlySet<number>,
  write: (prepared: AnalyzedDocument[], replaced: IndexedPlace[]) => void,
  options: {
    /** Only these hosts' documents, when given. */
    hosts?: ReadonlySet<string>;
    /** Hosts whose lines are judged as if they had no template yet (TemplateBlockStore.current). */
    adoptedInPass?: ReadonlySet<string>;
  } = {},
): void {
  const { hosts, adoptedInPass } = options;
  const current = store.templates.current({ hosts, withoutHistory: adoptedInPass });
  const applied = store.templates.appliedSets();
  let prepared: AnalyzedDocument[] = [];
  let replaced: IndexedPlace[] = [];
  let chars = 0;
  const flush = () => {
    if (prepared.length > 0) write(prepared, replaced);
    prepared = [];
    replaced = [];
    chars = 0;
  };
  for (const host of new Set([...current.keys(), ...applied.keys()])) {
    if (hosts !== undefined && !hosts.has(host)) continue;
    const now = current.get(host) ?? new Set<number>();
    const before = applied.get(host) ?? new Set<number>();
    const changed = new Set([...now].filter((block) => !before.has(block)));
    for (const block of before) if (!now.has(block)) changed.add(block);
    if (changed.size === 0) continue;
    for (const page of store.templates.documentPagesOf(host, RESPLIT_READ_PAGE)) {
      for (const document of page) {
        if (exclude.has(document.id) || !holdsAnyBlock(document.body, document.template, changed)) continue;
        prepared.push({
          docId: document.id,
          fields: withoutTemplateLines(analyzeDocumentFields(document), now),
        });
        // Its display head was cut by lines of which one at least changed side.
        store.displayHeads.put(document.id, displayHeadOf(document.body, document.url, current));
        replaced.push({ segmentId: document.segmentId, ordinal: document.ordinal });
        chars += document.body.length + document.template.length + document.headings.length;
        if (prepared.length >= RESPLIT_CHUNK || chars >= RESPLIT_CHUNK_CHARS) flush();
      }
    }
    store.templates.setApplied(host, now);
  }
  flush();
}

function sameKey(stored: Uint8Array | null, fresh: Buffer | null): boolean {
  return stored === null || fresh === null ? stored === fresh : fresh.equals(stored);
}

/**
 * Inside a write transaction, after resplitChanged: of `documents` (a staged run's, just
 * published), those whose lines changed side between their staging and now, told by their
 * display head no longer holding or their main text key no longer the same: they were split with the template as it stood when staged,
 * and a later write changed it while the staged copies were out of its reach. Split again with
 * the current template, their heads stored anew. A document without a head (staged before
 * format 9) only gets its head. Documents of `done` were just split.
 */
export function resplitStale(
  store: SearchIndexStore,
  documents: readonly number[],
  done: ReadonlySet<number>,
): { prepared: AnalyzedDocument[]; replaced: IndexedPlace[] } {
  const prepared: AnalyzedDocument[] = [];
  const replaced: IndexedPlace[] = [];
  if (documents.length === 0) return { prepared, replaced };
  const current = store.templates.current();
  for (const id of documents) {
    if (done.has(id)) continue;
    const head = store.displayHeads.headLines(id);
    if (head === undefined) continue;
    const holds = head.lines !== null && headHolds(head.lines, head.url, current);
    // A head cut short left lines unlooked at, which may have changed side too: the main text
    // key tells. A whole head looked at every line.
    if (holds && !head.more) continue;
    const document = store.document(id)!;
    if (holds && sameKey(head.mainKey, mainTextKeyOf(document.body, document.url, current))) continue;
    store.displayHeads.put(id, displayHeadOf(document.body, document.url, current));
    if (head.lines === null) continue;
    const place = store.locate(document.url)!;
    prepared.push({
      docId: id,
      fields: withoutTemplateLines(analyzeDocumentFields(document), current.get(pageHostOf(document.url))),
    });
    replaced.push({ segmentId: place.segmentId, ordinal: place.ordinal });
  }
  return { prepared, replaced };
}
