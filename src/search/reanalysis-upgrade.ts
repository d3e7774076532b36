/**
 * Upgrading an index file written by an older analyzer (docs/operations.md, Upgrading): its
 * segments hold the tokens and field layout of that analyzer, so they are not read; every
 * document is analyzed again from its stored text, as a batch of `kumo index` analyzes a page,
 * into new segments that replace them all. A staged run's documents go into staged segments of
 * the same run, so the run can still be applied or discarded. Runs inside the transaction that
 * upgrades the file (search-index-schema.ts): an upgrade cut short leaves the file as it was.
 */
import type { ReanalysisDocument, ReanalysisRows } from './storage/reanalysis-rows.js';
import { ANALYZER_VERSION } from './analyzer.js';
import { analyzeDocumentFields } from './document-fields.js';
import { buildSegment } from './engine/segment-builder.js';
import { storeSegmentTerms } from './segment-rows.js';
import type { TemplateBlocks } from './template-blocks.js';
import { splitBatch } from './template-resplit.js';

/** Documents analyzed into one segment, as many as a batch of `kumo index`: memory stays bounded. */
export const REANALYSIS_BATCH = 500;

/** How far an upgrade is, told before the first segment, after each, and at the end. */
export interface ReanalysisProgress {
  /** The analyzer version the file was written by. */
  fromVersion: number;
  /** Documents analyzed so far (a staged run's new versions included). */
  done: number;
  total: number;
  elapsedMs: number;
  /** Every document is indexed again and the old segments are dropped. */
  finished: boolean;
}

/** Where the documents of one pass are read from and placed. */
interface Pass {
  /** null for searchable segments. */
  runKey: string | null;
  read: (after: number, limit: number) => ReanalysisDocument[];
  place: (id: number, segmentId: number, ordinal: number) => void;
}

/**
 * Indexes every document of the file again from its stored text: the searchable ones, then
 * each staged run's new pages and new versions. The stored phrases of titles and headings are
 * normalized by the analyzer (site/suggest-phrases.ts): they are dropped, and the first suggester
 * built cuts them again in the background and writes them back, as after an upgrade from format
 * 7 (docs/operations.md, Upgrading), rather than making the upgrade, which searches wait for,
 * longer by about half. Display heads and main text keys are cut by the template lines alone,
 * not the analyzer, and are kept.
 */
export function reanalyzeIndexFile(
  rows: ReanalysisRows,
  fromVersion: number,
  onProgress?: (progress: ReanalysisProgress) => void,
): void {
  const started = Date.now();
  const total = rows.documentCount();
  let done = 0;
  const tell = (finished = false) =>
    onProgress?.({ fromVersion, done, total, elapsedMs: Date.now() - started, finished });
  tell();
  // Split by the template lines as the counts stand, as a batch is; the lines the documents were
  // split with before stay recorded, so the next write splits again those whose lines changed
  // side meanwhile (template-resplit.ts), as it would have.
  const blocks = rows.templateBlocks;
  const lastOld = rows.lastSegmentId();
  let nextId = lastOld + 1;
  const passes: Pass[] = [
    {
      runKey: null,
      read: (after, limit) => rows.searchable(after, limit),
      place: (id, segmentId, ordinal) => rows.placeDocument(id, segmentId, ordinal),
    },
  ];
  for (const runKey of rows.runKeys()) {
    passes.push(
      {
        runKey,
        read: (after, limit) => rows.runNew(runKey, after, limit),
        place: (id, segmentId, ordinal) => rows.placeDocument(id, segmentId, ordinal),
      },
      {
        runKey,
        read: (after, limit) => rows.runChanged(runKey, after, limit),
        place: (id, segmentId, ordinal) => rows.placeStaged(runKey, id, segmentId, ordinal),
      },
    );
  }
  for (const pass of passes) {
    let after = 0;
    for (;;) {
      const documents = pass.read(after, REANALYSIS_BATCH);
      if (documents.length === 0) break;
      writeSegment(rows, pass, nextId, documents, blocks);
      nextId += 1;
      after = documents.at(-1)!.id;
      done += documents.length;
      tell();
    }
  }
  rows.dropSegmentsUpTo(lastOld);
  rows.dropPhrases();
  tell(true);
}

/** One segment of `documents`, numbered `id`, with each document placed in it. */
function writeSegment(
  rows: ReanalysisRows,
  pass: Pass,
  id: number,
  documents: readonly ReanalysisDocument[],
  blocks: TemplateBlocks,
): void {
  const analyzed = documents.map((document) => ({
    docId: document.id,
    url: document.url,
    fields: analyzeDocumentFields(document),
  }));
  const built = buildSegment(id, splitBatch(analyzed, blocks));
  rows.insertSegment(built.id, storeSegmentTerms(rows.termRows, built), built.deleted, pass.runKey);
  built.docIds.forEach((docId, ordinal) => pass.place(docId, built.id, ordinal));
}

/** Time between two progress lines of a long upgrade. */
const REPORT_EVERY_MS = 10_000;

/**
 * A progress callback that tells a person, through `say`, that an upgrade started, how far it is
 * every REPORT_EVERY_MS, and how long it took.
 */
export function reanalysisReporter(say: (message: string) => void): (progress: ReanalysisProgress) => void {
  let lastSaid = 0;
  return (progress) => {
    const seconds = (progress.elapsedMs / 1000).toFixed(1);
    if (progress.finished) say(`index file upgraded: ${progress.total} pages indexed again in ${seconds} s`);
    else if (progress.done === 0)
      say(
        `upgrading an index file ${progress.fromVersion < ANALYZER_VERSION ? `written by analyzer ${progress.fromVersion}` : 'of an older format'}: indexing its ` +
          `${progress.total} pages again from their stored text`,
      );
    else if (progress.elapsedMs - lastSaid >= REPORT_EVERY_MS) {
      lastSaid = progress.elapsedMs;
      say(`upgrading the index file: ${progress.done} of ${progress.total} pages (${seconds} s)`);
    }
  };
}
