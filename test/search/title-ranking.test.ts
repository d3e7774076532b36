/**
 * Title and heading matches, and quoted phrases, on pages shaped like the PostgreSQL manual's
 * (docs/design/search-engine.md, Search engine): the chapter titled with the query ranks above the
 * pages that repeat its words, and quoting a phrase keeps the order the words give the pages that
 * hold it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SearchIndex } from '../../src/search/search-index.js';
import { type ManualPage, manualDocument, otherManualPages } from '../support/manual-pages.js';
import { rankedSearch } from '../support/ranked-search.js';

let folder: string;
before(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-title-ranking-'));
});
after(() => rmSync(folder, { recursive: true, force: true }));

const urlOf = (slug: string) => `https://manual.example/docs/${slug}.html`;
const ranked = (index: SearchIndex, query: string) =>
  rankedSearch(index, query, 10).docs.map((doc) => doc.url);

/** The chapter on logical replication and the pages that mention it most (counts of the real pages). */
const REPLICATION_PAGES: ManualPage[] = [
  {
    slug: 'logical-replication',
    title: 'Chapter 31. Logical Replication',
    headings:
      'Chapter 31. Logical Replication 31.1. Publication 31.2. Subscription 31.2.1. Replication Slot Management ' +
      '31.2.2. Examples 31.3. Row Filters 31.3.1. Row Filter Rules 31.4. Column Lists 31.5. Conflicts ' +
      '31.6. Restrictions 31.7. Architecture 31.8. Monitoring 31.9. Security 31.10. Configuration Settings',
    bodyWords: 431,
    mentions: [
      { text: 'logical replication', times: 7 },
      { text: 'logical', times: 1 },
      { text: 'replication', times: 8 },
    ],
  },
  {
    slug: 'protocol-logical-replication',
    title: '55.5. Logical Streaming Replication Protocol',
    headings:
      '55.5. Logical Streaming Replication Protocol 55.5.1. Logical Streaming Replication Parameters ' +
      '55.5.2. Logical Replication Protocol Messages 55.5.3. Logical Replication Protocol Message Flow ' +
      '55.5.1. Logical Streaming Replication Parameters proto_version publication_names binary messages ' +
      'streaming 55.5.2. Logical Replication Protocol Messages 55.5.3. Logical Replication Protocol Message Flow',
    bodyWords: 711,
    mentions: [
      { text: 'logical replication', times: 9 },
      { text: 'logical', times: 6 },
      { text: 'replication', times: 10 },
    ],
  },
  {
    slug: 'logicaldecoding-explanation',
    title: '49.2. Logical Decoding Concepts',
    headings:
      '49.2. Logical Decoding Concepts 49.2.1. Logical Decoding 49.2.2. Replication Slots 49.2.3. Output ' +
      'Plugins 49.2.4. Exported Snapshots 49.2.1. Logical Decoding 49.2.2. Replication Slots Note Caution',
    bodyWords: 648,
    mentions: [
      { text: 'logical replication', times: 2 },
      { text: 'logical', times: 10 },
      { text: 'replication', times: 13 },
    ],
  },
  {
    slug: 'logicaldecoding',
    title: 'Chapter 49. Logical Decoding',
    headings:
      'Chapter 49. Logical Decoding 49.1. Logical Decoding Examples 49.2. Logical Decoding Concepts ' +
      '49.2.1. Logical Decoding 49.2.2. Replication Slots 49.3. Streaming Replication Protocol Interface ' +
      '49.4. Logical Decoding SQL Interface 49.5. System Catalogs Related to Logical Decoding 49.6. Logical ' +
      'Decoding Output Plugins 49.7. Logical Decoding Output Writers 49.8. Synchronous Replication Support ' +
      'for Logical Decoding 49.9. Streaming of Large Transactions for Logical Decoding 49.10. Two-phase ' +
      'Commit Support for Logical Decoding',
    bodyWords: 289,
    mentions: [
      { text: 'logical replication', times: 1 },
      { text: 'logical', times: 13 },
      { text: 'replication', times: 6 },
    ],
  },
  {
    slug: 'different-replication-solutions',
    title: '27.1. Comparison of Different Solutions',
    headings:
      '27.1. Comparison of Different Solutions Shared Disk Failover File System Replication Write-Ahead Log ' +
      'Shipping Logical Replication Trigger-Based Primary-Standby Replication SQL-Based Replication ' +
      'Middleware Asynchronous Multimaster Replication Synchronous Multimaster Replication',
    bodyWords: 1293,
    mentions: [
      { text: 'logical replication', times: 5 },
      { text: 'logical', times: 5 },
      { text: 'replication', times: 24 },
    ],
  },
  {
    slug: 'protocol-replication',
    title: '55.4. Streaming Replication Protocol',
    headings: '55.4. Streaming Replication Protocol 55.4.1. Streaming Replication Parameters logical logical',
    bodyWords: 3422,
    mentions: [
      { text: 'logical replication', times: 8 },
      { text: 'logical', times: 9 },
      { text: 'replication', times: 35 },
    ],
  },
  {
    slug: 'logical-replication-architecture',
    title: '31.7. Architecture',
    headings: '31.7. Architecture 31.7.1. Initial Snapshot',
    bodyWords: 446,
    mentions: [
      { text: 'logical replication', times: 6 },
      { text: 'logical', times: 2 },
      { text: 'replication', times: 5 },
    ],
  },
];

/** The page on constraints (a section headed "Foreign Keys") and the pages that mention foreign keys. */
const CONSTRAINT_PAGES: ManualPage[] = [
  {
    slug: 'ddl-constraints',
    title: '5.4. Constraints',
    headings:
      '5.4. Constraints 5.4.1. Check Constraints 5.4.2. Not-Null Constraints 5.4.3. Unique Constraints ' +
      '5.4.4. Primary Keys 5.4.5. Foreign Keys 5.4.6. Exclusion Constraints 5.4.1. Check Constraints Note ' +
      'Note 5.4.2. Not-Null Constraints Tip 5.4.3. Unique Constraints 5.4.4. Primary Keys 5.4.5. Foreign ' +
      'Keys 5.4.6. Exclusion Constraints',
    bodyWords: 3491,
    mentions: [
      { text: 'foreign key', times: 18 },
      { text: 'foreign keys', times: 5 },
      { text: 'foreign', times: 2 },
      { text: 'primary key', times: 34 },
    ],
  },
  {
    slug: 'catalog-pg-constraint',
    title: '53.13. pg_constraint',
    headings: '53.13. pg_constraint',
    bodyWords: 619,
    mentions: [
      { text: 'foreign key', times: 12 },
      { text: 'foreign keys', times: 2 },
      { text: 'key', times: 3 },
    ],
  },
  {
    slug: 'populate',
    title: '14.4. Populating a Database',
    headings:
      '14.4. Populating a Database 14.4.1. Disable Autocommit 14.4.2. Use COPY 14.4.3. Remove Indexes ' +
      '14.4.4. Remove Foreign Key Constraints 14.4.5. Increase maintenance_work_mem 14.4.1. Disable ' +
      'Autocommit 14.4.2. Use COPY 14.4.3. Remove Indexes 14.4.4. Remove Foreign Key Constraints',
    bodyWords: 1588,
    mentions: [
      { text: 'foreign key', times: 8 },
      { text: 'foreign keys', times: 6 },
    ],
  },
  {
    slug: 'contrib-spi',
    title: 'F.41. spi',
    headings: 'F.41. spi F.41.1. refint Functions for Implementing Referential Integrity',
    bodyWords: 895,
    mentions: [
      { text: 'foreign key', times: 3 },
      { text: 'foreign', times: 1 },
      { text: 'key', times: 5 },
    ],
  },
  {
    slug: 'infoschema-referential-constraints',
    title: '37.34. referential_constraints',
    headings: '37.34. referential_constraints',
    bodyWords: 208,
    mentions: [
      { text: 'foreign key', times: 7 },
      { text: 'key', times: 3 },
    ],
  },
  {
    slug: 'sql-altertable',
    title: 'ALTER TABLE',
    headings: 'ALTER TABLE Synopsis Description Parameters Notes Examples Compatibility See Also',
    bodyWords: 7858,
    mentions: [
      { text: 'foreign key', times: 21 },
      { text: 'foreign', times: 10 },
      { text: 'key', times: 20 },
    ],
  },
  {
    slug: 'tutorial-fk',
    title: '3.3. Foreign Keys',
    headings: '3.3. Foreign Keys',
    bodyWords: 254,
    mentions: [
      { text: 'foreign key', times: 1 },
      { text: 'foreign keys', times: 4 },
      { text: 'key', times: 2 },
    ],
  },
];

describe('title and heading matches and quoted phrases, on a manual', () => {
  let index: SearchIndex;
  before(() => {
    index = new SearchIndex(path.join(folder, 'manual.db'));
    const pages = [...REPLICATION_PAGES, ...CONSTRAINT_PAGES, ...otherManualPages(60)];
    index.writer.upsert(pages.map(manualDocument), 'bundle:test');
  });
  after(() => index.close());

  test('the chapter titled with the query ranks above pages that repeat its words in long bodies', () => {
    assert.equal(ranked(index, 'logical replication')[0], urlOf('logical-replication'));
    assert.equal(ranked(index, '"logical replication"')[0], urlOf('logical-replication'));
    assert.equal(ranked(index, 'Logical Replication')[0], urlOf('logical-replication'));
  });

  test('a page titled with exactly the query ranks above one whose title holds it among other words', () => {
    assert.deepEqual(ranked(index, 'streaming replication protocol').slice(0, 2), [
      urlOf('protocol-replication'),
      urlOf('protocol-logical-replication'),
    ]);
  });

  test('a quoted phrase ranks first the best page the unquoted words rank that holds the phrase', () => {
    assert.equal(ranked(index, 'foreign key')[0], urlOf('ddl-constraints'));
    assert.equal(ranked(index, '"foreign key"')[0], urlOf('ddl-constraints'));
  });

  test('quoting keeps the relative order of the pages that hold the phrase', () => {
    for (const words of ['foreign key', 'logical replication']) {
      const quoted = ranked(index, `"${words}"`);
      const unquoted = rankedSearch(index, words, 100)
        .docs.map((doc) => doc.url)
        .filter((url) => quoted.includes(url));
      assert.deepEqual(quoted, unquoted.slice(0, quoted.length), words);
    }
  });
});

describe('the main heading, on a site whose titles name only the site', () => {
  test('a page whose main heading is the query ranks above pages that mention it, even in a later heading', () => {
    const index = new SearchIndex(path.join(folder, 'headings.db'));
    try {
      const site = (slug: string, headings: string, times: number, bodyWords: number): ManualPage => ({
        slug,
        title: 'Example Docs',
        headings,
        bodyWords,
        mentions: [
          { text: 'trigger functions', times },
          { text: 'trigger', times },
          { text: 'functions', times },
        ],
      });
      const pages = [
        site('trigger-functions', '38.1. Trigger Functions 38.1.1. Overview 38.1.2. Examples', 3, 400),
        site('writing-triggers', '38.4. Writing Triggers 38.4.1. Calling Trigger Functions', 9, 1500),
        site('event-triggers', '40.2. Event Triggers 40.2.1. Overview', 10, 2000),
        site('plpgsql-trigger', '43.10. PL/pgSQL Triggers 43.10.1. Triggers on Data Changes', 12, 3000),
        site('create-trigger', 'CREATE TRIGGER Synopsis Description Parameters', 8, 2500),
        ...otherManualPages(30),
      ];
      index.writer.upsert(pages.map(manualDocument), 'bundle:test');
      assert.equal(ranked(index, 'trigger functions')[0], urlOf('trigger-functions'));
    } finally {
      index.close();
    }
  });
});
