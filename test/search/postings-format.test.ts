/**
 * Postings format 2 (src/search/engine/segment-codec.ts; docs/design/search-engine.md, Segments):
 * a term's row holds its documents and counts per field, its positions are blocks read only where
 * a phrase, proximity or a merge needs them; a file of format 14, whose segments hold postings
 * format 1, answers as before and gets format 2 segments as they are merged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { analyzeText } from '../../src/search/analyzer.js';
import { FIELD_COUNT, fieldOfPosition } from '../../src/search/engine/fields.js';
import { buildSegment } from '../../src/search/engine/segment-builder.js';
import {
  decodeDocArrays,
  decodePostingsHead,
  POSITION_BLOCK,
  POSITION_BLOCK_BYTES,
} from '../../src/search/engine/segment-codec.js';
import { READ_AHEAD_BLOCKS, StoredTermPostings } from '../../src/search/engine/stored-term-postings.js';
import type { IndexedDocument } from '../../src/search/indexed-document.js';
import { SearchIndex } from '../../src/search/search-index.js';
import { TermRowWriter } from '../../src/search/segment-rows.js';
import { rankedSearch } from '../support/ranked-search.js';
import { seededRandom } from '../support/seeded-random.js';
import { undoFormat15 } from './format-14-postings.js';

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', '東京都の天気予報', 'report', 'weather'];

/** Text of `count` words drawn from WORDS, some pages holding "alpha beta" several times. */
function textOf(random: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
}

function pagesOf(count: number): IndexedDocument[] {
  const random = seededRandom(15);
  return Array.from({ length: count }, (_, n) => ({
    url: `https://docs.example/page-${n}.html`,
    title: `Page ${n} ${textOf(random, 2)}`,
    description: '',
    headings: textOf(random, 3),
    body: `${textOf(random, 10 + Math.floor(random() * 200))}\n${n % 7 === 0 ? 'alpha beta '.repeat(n % 5) : ''}`,
    contentSize: 1000,
    lastModified: 0,
    doctype: 'html',
  }));
}

function newIndexFile(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-postings-format-'));
  folders.push(folder);
  return path.join(folder, 'service-1.db');
}

const QUERIES = ['alpha', '"alpha beta"', 'alpha weather', '天気予報', 'gamma report', 'page 12'];

/** What each query answers: its count and its first page, scores included. */
function answersOf(index: SearchIndex): unknown[] {
  return QUERIES.map((query) => {
    const { hits, docs } = rankedSearch(index, query, 20);
    return { query, hits, docs: docs.map(({ url, score }) => ({ url, score })) };
  });
}

function postingsFormatsOf(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    const data = db.prepare('SELECT data FROM segments ORDER BY id').pluck().all() as Buffer[];
    return data.map((bytes) => decodeDocArrays(bytes).postingsFormat);
  } finally {
    db.close();
  }
}

describe('postings format 2', () => {
  test("a term's documents, counts per field and positions are read back as they were built", () => {
    const random = seededRandom(3);
    const documents = Array.from({ length: 300 }, (_, docId) => ({
      docId,
      fields: [
        analyzeText(docId % 3 === 0 ? 'alpha' : 'beta'),
        analyzeText(''),
        // Many positions a document: blocks end by their bytes before POSITION_BLOCK documents.
        analyzeText('omega '.repeat(60 + (docId % 50))),
        analyzeText(textOf(random, 1 + (docId % 40))),
        analyzeText(`https://docs.example/${docId}`),
        analyzeText(docId % 5 === 0 ? 'alpha alpha alpha' : ''),
      ],
    }));
    const segment = buildSegment(1, documents);
    const rows = new Map<
      string,
      { docCount: number; head: Buffer; inline: Buffer | null; blocks: Buffer[] }
    >();
    // A term's blocks are written as each is complete, before the term's row.
    let pendingBlocks: Buffer[] = [];
    const writer = new TermRowWriter(
      {
        insert: (_, term, docCount, head, positions) => {
          rows.set(term, {
            docCount,
            head: Buffer.from(head),
            inline: positions === null ? null : Buffer.from(positions),
            blocks: pendingBlocks,
          });
          pendingBlocks = [];
        },
        insertBlock: (_, _term, block, positions) => {
          assert.equal(pendingBlocks.length, block, 'blocks come in order');
          pendingBlocks.push(Buffer.from(positions));
        },
      },
      1,
    );
    for (const { term, postings } of segment.termsWithPositions()) writer.write(term, postings);

    let multiBlock = 0;
    let endedByBytes = 0;
    let longest = 0;
    for (const { term, postings: built } of segment.termsWithPostings()) {
      const row = rows.get(term)!;
      const head = decodePostingsHead(row.head, row.docCount);
      assert.deepEqual([...head.docs], [...built.docs], term);
      assert.deepEqual([...head.fieldCounts], [...built.fieldCounts], term);
      const blocks = head.blockStarts.length;
      // A term of one block keeps it in its row; a longer one has a row a block.
      if (blocks === 1) assert.ok(row.inline !== null && row.blocks.length === 0, term);
      else {
        assert.ok(row.inline === null && row.blocks.length === blocks, term);
        multiBlock += 1;
      }
      head.blockStarts.forEach((start, block) => {
        const end = head.blockStarts[block + 1] ?? row.docCount;
        assert.ok(end - start <= POSITION_BLOCK, term);
        // A block passes its bytes by its last document's at most (here a few hundred bytes).
        const bytes = (row.inline ?? row.blocks[block]!).length;
        assert.ok(bytes < POSITION_BLOCK_BYTES + 300, `${term}: ${bytes} bytes`);
        if (block + 1 < blocks && end - start < POSITION_BLOCK) endedByBytes += 1;
      });
      let reads = 0;
      const stored = new StoredTermPostings(head, {
        bytesOf: (block) => {
          reads += 1;
          return row.inline ?? row.blocks[block];
        },
        bytesFrom: (from, limit) => {
          reads += 1;
          return row.blocks.slice(from, from + limit);
        },
        cache: undefined,
        key: term,
      });
      const builtReader = built.positionReader();
      // Read out of order, as proximity does: each document's positions as built.
      const reader = stored.positionReader();
      for (const posting of [...head.docs.keys()].reverse())
        assert.deepEqual([...reader.positionsOf(posting)], [...builtReader.positionsOf(posting)], term);
      // Read in order, as a phrase does: the first block alone, then READ_AHEAD_BLOCKS at a time.
      reads = 0;
      const inOrder = stored.positionReader();
      for (const posting of head.docs.keys())
        assert.deepEqual([...inOrder.positionsOf(posting)], [...builtReader.positionsOf(posting)], term);
      assert.equal(reads, 1 + Math.ceil((blocks - 1) / READ_AHEAD_BLOCKS), term);
      longest = Math.max(longest, blocks);
    }
    assert.ok(longest >= 3, `the longest term has ${longest} blocks`);
    assert.ok(endedByBytes >= 2, 'a term of many positions a document has blocks ended by their bytes');
    assert.ok(multiBlock >= 2, 'common terms span several blocks');

    // Counts per field are the counts of positions: 'alpha' three times in the links field.
    const alpha = segment.termPostings('alpha')!;
    const inLinks = [...alpha.docs.keys()].filter(
      (posting) => alpha.fieldCounts[posting * FIELD_COUNT + 5] === 3,
    );
    assert.equal(inLinks.length, 60);
    for (const posting of inLinks) {
      const fields = [...alpha.positionReader().positionsOf(posting)].map(fieldOfPosition);
      assert.equal(fields.filter((field) => field === 5).length, 3);
    }
    assert.throws(() => decodePostingsHead(Buffer.from([0x81]), 1), /truncated index segment/);
    assert.throws(() => decodePostingsHead(Buffer.from([0x00, 0x40]), 1), /corrupt index segment/);
  });

  test('blocks end at POSITION_BLOCK documents, or once past their bytes, and a term of one block is in its row', () => {
    const words = (docId: number) =>
      [
        docId < POSITION_BLOCK ? 'exact' : '',
        docId < POSITION_BLOCK + 1 ? 'over' : '',
        // Three documents of many positions: the block ends past its bytes with the third.
        docId < 3 ? 'dense '.repeat(1000) : docId < 10 ? 'dense' : '',
      ].join(' ');
    const segment = buildSegment(
      1,
      Array.from({ length: 2 * POSITION_BLOCK }, (_, docId) => ({
        docId,
        fields: [0, 1, 2, 3, 4, 5].map((field) => analyzeText(field === 3 ? words(docId) : '')),
      })),
    );
    const blocks = new Map<string, { inline: boolean; starts: number[] }>();
    const writer = new TermRowWriter(
      {
        insert: (_, term, docCount, head, positions) =>
          blocks.set(term, {
            inline: positions !== null,
            starts: [...decodePostingsHead(head, docCount).blockStarts],
          }),
        insertBlock: () => undefined,
      },
      1,
    );
    for (const { term, postings } of segment.termsWithPositions()) writer.write(term, postings);
    assert.deepEqual(blocks.get('exact'), { inline: true, starts: [0] });
    assert.deepEqual(blocks.get('over'), { inline: false, starts: [0, POSITION_BLOCK] });
    // 1,000 positions a document, one byte each: past 3,000 bytes with the third document.
    assert.deepEqual(blocks.get('dense'), { inline: false, starts: [0, 3] });
  });

  test("a term's blocks are written as each is complete, before its last posting is given", () => {
    const given: number[] = [];
    let postings = 0;
    const rows: { docCount: number; inline: boolean; blockStarts: number[] }[] = [];
    const writer = new TermRowWriter(
      {
        insert: (_, _term, docCount, head, positions) =>
          rows.push({
            docCount,
            inline: positions !== null,
            blockStarts: [...decodePostingsHead(head, docCount).blockStarts],
          }),
        insertBlock: (_, _term, block) => {
          assert.equal(block, given.length);
          given.push(postings);
        },
      },
      1,
    );
    writer.startTerm('word');
    // Two positions a posting, in the body: one byte each, so blocks end at POSITION_BLOCK.
    const positions = Uint32Array.of(1, 5);
    for (let doc = 0; doc < 2 * POSITION_BLOCK + 10; doc += 1) {
      writer.addPosting(doc * 3, positions, 0, positions.length);
      postings += 1;
    }
    writer.endTerm();
    // Block 0 went out when posting 129 came, block 1 with posting 257, the last at the end.
    assert.deepEqual(given, [POSITION_BLOCK, 2 * POSITION_BLOCK, 2 * POSITION_BLOCK + 10]);
    assert.deepEqual(rows, [
      {
        docCount: 2 * POSITION_BLOCK + 10,
        inline: false,
        blockStarts: [0, POSITION_BLOCK, 2 * POSITION_BLOCK],
      },
    ]);
    // A term given no posting has no row.
    writer.startTerm('gone');
    writer.endTerm();
    assert.equal(rows.length, 1);
  });

  test('a file of format 14 answers as before, and its segments are written in format 2 when merged', () => {
    const file = newIndexFile();
    const pages = pagesOf(400);
    const index = new SearchIndex(file);
    index.writer.upsert(pages, 'bundle:test');
    const before = answersOf(index);
    assert.ok(postingsFormatsOf(file).every((format) => format === 2));
    index.close();

    const db = new Database(file);
    undoFormat15(db);
    db.close();
    assert.ok(postingsFormatsOf(file).every((format) => format === 1));

    const upgraded = new SearchIndex(file);
    try {
      assert.deepEqual(answersOf(upgraded), before);
      // Seven batches more: eight segments of a tier (64 to 511 pages), merged, the format 1 one
      // with the others.
      const added = pagesOf(400 + 7 * 64).slice(400);
      for (let batch = 0; batch < 7; batch += 1)
        upgraded.writer.upsert(added.slice(batch * 64, batch * 64 + 64), 'bundle:test');
      assert.deepEqual(postingsFormatsOf(file), [2]);
      // A third of the pages removed: the segment is rewritten without them.
      const all = [...pages, ...added];
      const removed = all.filter((_, n) => n % 3 === 0).map((page) => page.url);
      upgraded.writer.remove(removed);
      assert.ok(postingsFormatsOf(file).every((format) => format === 2));
      const kept = all.filter((_, n) => n % 3 !== 0);
      const fresh = new SearchIndex(newIndexFile());
      try {
        fresh.writer.upsert(kept, 'bundle:test');
        assert.deepEqual(answersOf(upgraded), answersOf(fresh));
      } finally {
        fresh.close();
      }
    } finally {
      upgraded.close();
    }
    const reader = new Database(file, { readonly: true });
    try {
      assert.equal(reader.prepare("SELECT value FROM index_meta WHERE key = 'schema'").pluck().get(), '17');
      // The old segments' rows went with them: only format 2 terms and their blocks remain.
      assert.ok((reader.prepare('SELECT count(*) FROM segment_term_positions').pluck().get() as number) > 0);
    } finally {
      reader.close();
    }
  });
});
