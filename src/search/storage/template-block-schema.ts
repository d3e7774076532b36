import type Database from 'better-sqlite3';
import type { StoredDocument } from './stored-document.js';
import { TemplateCountChanges } from './template-count-changes.js';
import {
  blockHashesOf,
  pageHostOf,
  TEMPLATE_MIN_PAGES,
  templateThreshold,
  type TemplatePage,
  TemplateLineLengths,
} from '../../domain/index.js';

/**
 * The lines on enough pages to be template candidates, for templateBlocksOf. Partial: most
 * counted lines are content on one or two pages, and an index of every count would be rewritten
 * at each page written (it cost indexing about a third of its time; docs/design/search-engine.md,
 * Page templates); a line enters it only once it is on TEMPLATE_MIN_PAGES pages.
 */
const CANDIDATES_INDEX = `CREATE INDEX template_blocks_candidates ON template_blocks (host_id, pages)
    WHERE pages >= ${TEMPLATE_MIN_PAGES};`;

/**
 * The triggers that keep the counts in step with the documents table: each reports the document
 * counted in or out to the connection's TemplateCountChanges, which writes the counts before
 * they are read or the transaction commits (index format 13; the triggers of formats 6 to 12
 * wrote every line's count themselves).
 */
const COUNT_TRIGGERS = `
  CREATE TRIGGER documents_count_blocks AFTER INSERT ON documents BEGIN
    SELECT count_template_blocks(new.url, new.title, new.body, new.template, 1, 1);
  END;
  CREATE TRIGGER documents_uncount_blocks AFTER DELETE ON documents BEGIN
    SELECT count_template_blocks(old.url, old.title, old.body, old.template, -1, 1);
  END;
  CREATE TRIGGER documents_recount_blocks AFTER UPDATE OF title, body, template ON documents
    WHEN old.body IS NOT new.body OR old.title IS NOT new.title OR old.template IS NOT new.template BEGIN
    SELECT count_template_blocks(old.url, old.title, old.body, old.template, -1, 0);
    SELECT count_template_blocks(new.url, new.title, new.body, new.template, 1, 0);
  END;
`;

/** A file of format 12 or older, whose triggers wrote the counts, gets those of format 13. */
export const COUNT_TRIGGERS_MIGRATION = `
  DROP TRIGGER IF EXISTS documents_count_blocks;
  DROP TRIGGER IF EXISTS documents_uncount_blocks;
  DROP TRIGGER IF EXISTS documents_recount_blocks;
  ${COUNT_TRIGGERS}
`;

/**
 * Format 6 of the index file (docs/reference/site-search.md, Page templates): each document
 * keeps its template text by markup apart from its body, and the file counts, per host, how many
 * documents hold each line of a body or part of a title (`template_blocks`) and how many documents the host has
 * (`template_hosts`). Triggers keep the counts in step with the documents table whatever
 * writes it (a batch, a staged run and its apply, a removal), so the detection follows the site
 * as it changes; they call the functions `registerTemplateFunctions` gives each connection.
 * `template_applied` holds the template lines the indexed documents of each host were split
 * with: when the counts make another set template, the documents holding a line that changed
 * side are indexed again (template-resplit.ts).
 */
export const TEMPLATE_SCHEMA = `
  ALTER TABLE documents ADD COLUMN template TEXT NOT NULL DEFAULT '';
  ALTER TABLE staged_documents ADD COLUMN template TEXT NOT NULL DEFAULT '';
  CREATE TABLE template_hosts (
    id INTEGER PRIMARY KEY,
    host TEXT NOT NULL UNIQUE,
    pages INTEGER NOT NULL
  );
  CREATE TABLE template_blocks (
    host_id INTEGER NOT NULL,
    block INTEGER NOT NULL,
    pages INTEGER NOT NULL,
    PRIMARY KEY (host_id, block)
  ) WITHOUT ROWID;
  ${CANDIDATES_INDEX}
  CREATE TABLE template_applied (
    host_id INTEGER NOT NULL,
    block INTEGER NOT NULL,
    PRIMARY KEY (host_id, block)
  ) WITHOUT ROWID;
  ${COUNT_TRIGGERS}
`;

/**
 * A format 5 file or older gains the template column (empty: its documents were extracted
 * before, and get their template when a feed indexes them again) and the counts of its bodies.
 */
export const TEMPLATE_MIGRATION = `
  ${TEMPLATE_SCHEMA}
  INSERT INTO template_hosts (host, pages)
    SELECT page_host(url), count(*) FROM documents GROUP BY page_host(url);
  INSERT INTO template_blocks (host_id, block, pages)
    SELECT h.id, b.block, count(*) FROM documents d JOIN template_hosts h ON h.host = page_host(d.url),
      body_blocks(d.title, d.body, d.template) b GROUP BY h.id, b.block;
`;

/**
 * A format 6 file written before the candidates index had an index of every count: it gets the
 * partial one instead (the same answers, cheaper writes). Nothing to do on a file that has it.
 */
export function upgradeTemplateIndex(db: Database.Database): void {
  const old = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'template_blocks_pages'")
    .get();
  if (old === undefined) return;
  db.transaction(() => {
    db.exec(
      `DROP INDEX IF EXISTS template_blocks_pages; ${CANDIDATES_INDEX.replace('INDEX', 'INDEX IF NOT EXISTS')}`,
    );
  }).immediate();
}

/** Each connection's count changes not yet written, which a read of the counts writes first. */
const countChanges = new WeakMap<Database.Database, TemplateCountChanges>();

/** Writes the connection's gathered count changes, so that what is read next holds them. */
function flushCountChanges(db: Database.Database): void {
  countChanges.get(db)?.flush();
}

/**
 * The SQL functions the triggers and upgrades call; every connection that writes documents needs
 * them. Returns where the connection's count changes gather until they are written.
 */
export function registerTemplateFunctions(db: Database.Database): TemplateCountChanges {
  // Once per connection: a second gatherer would leave the first, which its store flushes, empty.
  const changes = countChanges.get(db) ?? new TemplateCountChanges(db);
  countChanges.set(db, changes);
  db.function('page_host', { deterministic: true }, (url: unknown) => pageHostOf(String(url)));
  db.function(
    'count_template_blocks',
    { varargs: false },
    (url: unknown, title: unknown, body: unknown, template: unknown, sign: unknown, countsPage: unknown) => {
      changes.count(
        String(url),
        String(title ?? ''),
        String(body ?? ''),
        String(template ?? ''),
        Number(sign) < 0 ? -1 : 1,
        Number(countsPage) !== 0,
      );
      return null;
    },
  );
  db.table('body_blocks', {
    columns: ['block'],
    parameters: ['title', 'body', 'template'],
    *rows(title: unknown, body: unknown, template: unknown) {
      for (const block of blockHashesOf(String(title ?? ''), String(body ?? ''), String(template ?? '')))
        yield { block };
    },
  });
  return changes;
}

/** A searchable document with where it is indexed: what a re-split reads. */
export interface HostDocument extends StoredDocument {
  segmentId: number;
  ordinal: number;
}

/**
 * Pages of a host read to find the lengths of its template lines: each line is on a fifth of the
 * host's pages or more, so the first pages hold them all but on odd sites, which then go without.
 */
const LENGTH_PAGES = 200;
/**
 * Pages read for the lengths of all hosts of one generation: an index of many sites pays a
 * bounded cost at the first search after each change, and the hosts past it go without.
 */
const LENGTH_PAGES_PER_GENERATION = 1000;
/** Pages read at once, between two pauses of the work that finds the lengths in the background. */
const LENGTH_PAGES_PER_READ = 20;

/** Which hosts' template lines to find (TemplateBlockStore.current), and how. */
export interface TemplateJudgement {
  /** Only these hosts, when given. */
  hosts?: ReadonlySet<string>;
  /** Hosts judged as if they had no template yet. */
  withoutHistory?: ReadonlySet<string>;
}

/** Template lines of each host with the lengths found for them (SearchIndex.hitTemplates). */
export interface TemplateLinesWithLengths {
  blocks: ReadonlyMap<string, ReadonlySet<number>>;
  lineLengths: ReadonlyMap<string, ReadonlySet<number>>;
  /**
   * Hosts whose pages were looked at in full (up to LENGTH_PAGES), lengths found or not: the
   * hosts the budget cut short are looked at again in a later generation.
   */
  examined: ReadonlySet<string>;
}

/** A host's row of the counts. */
interface HostRow {
  id: number;
  pages: number;
}

/** The statements of template detection: counts, the applied sets, a host's documents. */
export class TemplateBlockStore {
  private readonly applied;
  private readonly hostPages;
  private readonly clearApplied;
  private readonly addApplied;
  private readonly hostRow;
  private readonly hostDocuments;

  constructor(private readonly db: Database.Database) {
    this.applied = db
      .prepare('SELECT h.host, a.block FROM template_applied a JOIN template_hosts h ON h.id = a.host_id')
      .safeIntegers(false);
    this.clearApplied = db.prepare('DELETE FROM template_applied WHERE host_id = ?');
    this.addApplied = db.prepare('INSERT OR IGNORE INTO template_applied (host_id, block) VALUES (?, ?)');
    this.hostRow = db.prepare('SELECT id, pages FROM template_hosts WHERE host = ?');
    this.hostPages = db.prepare(
      `SELECT title, body, template FROM documents
       WHERE (url >= 'https://' || @host || '/' AND url < 'https://' || @host || '0')
          OR (url >= 'http://' || @host || '/' AND url < 'http://' || @host || '0')
       LIMIT @limit OFFSET @offset`,
    );
    // A scheme's range of the url index, a page at a time: from its start, then after a URL.
    const hostPage = (start: string) =>
      db.prepare(
        `SELECT d.id, d.url, d.title, d.description, d.headings, d.body, d.template, d.content_size AS contentSize,
           d.last_modified AS lastModified, d.doctype, p.segment_id AS segmentId, p.ordinal
         FROM documents d JOIN document_state p ON p.id = d.id
           JOIN segments s ON s.id = p.segment_id AND s.staged_run IS NULL
         WHERE ${start} AND d.url < @scheme || '://' || @host || '0'
         ORDER BY d.url LIMIT @limit`,
      );
    this.hostDocuments = {
      first: hostPage(`d.url >= @scheme || '://' || @host || '/'`),
      after: hostPage('d.url > @after'),
    };
  }

  /**
   * The lengths of each host's template lines (TemplateLineLengths), for the hosts whose lines
   * are all found in their first pages. A host looked at for `previous` whose lines did not
   * change (most hosts, from one generation to the next) keeps what was found then without
   * reading a page.
   */
  lineLengths(
    blocks: ReadonlyMap<string, ReadonlySet<number>>,
    previous?: TemplateLinesWithLengths,
  ): TemplateLinesWithLengths {
    const work = this.lineLengthsWork(blocks, previous);
    for (;;) {
      const step = work.next();
      if (step.done === true) return step.value;
    }
  }

  /**
   * `lineLengths` as work that pauses after each read of LENGTH_PAGES_PER_READ pages of a host,
   * read at once: no statement stays open across a pause, when the connection may run others.
   * A write between two reads may shift the pages by their offset; any page's lines give the
   * same lengths, so that costs at most a host left without them.
   */
  *lineLengthsWork(
    blocks: ReadonlyMap<string, ReadonlySet<number>>,
    previous?: TemplateLinesWithLengths,
  ): Generator<void, TemplateLinesWithLengths, void> {
    const lineLengths = knownLineLengths(blocks, previous);
    const examined = new Set<string>();
    let budget = LENGTH_PAGES_PER_GENERATION;
    for (const [host, template] of blocks) {
      if (template.size === 0) continue;
      if (
        previous?.examined.has(host) === true &&
        sameSet(previous.blocks.get(host) ?? NO_BLOCKS, template)
      ) {
        examined.add(host);
        continue;
      }
      if (budget === 0) continue;
      const limit = Math.min(LENGTH_PAGES, budget);
      const lengths = new TemplateLineLengths(template);
      let read = 0;
      for (let done = false; !done;) {
        const wanted = Math.min(LENGTH_PAGES_PER_READ, limit - read);
        const pages = this.hostPages.all({ host, limit: wanted, offset: read }) as TemplatePage[];
        for (const page of pages) {
          read += 1;
          if ((done = lengths.add(page))) break;
        }
        if (pages.length < wanted || read === limit) done = true;
        yield;
      }
      budget -= read;
      const found = lengths.found;
      if (found !== undefined) lineLengths.set(host, found);
      if (found !== undefined || limit === LENGTH_PAGES || read < limit) examined.add(host);
    }
    return { blocks, lineLengths, examined };
  }

  /**
   * Template lines of every host (of `hosts` only, when given) as the counts stand; those of
   * `withoutHistory` as if the host had no template yet (each line on 30% of its pages, none kept
   * down to 20%).
   */
  current(options: TemplateJudgement = {}): Map<string, Set<number>> {
    return templateBlocksOf(this.db, options);
  }

  /** The pages of a host the counts hold. */
  pagesOf(host: string): number {
    flushCountChanges(this.db);
    return (this.hostRow.get(host) as HostRow | undefined)?.pages ?? 0;
  }

  /** Template lines each host's indexed documents were split with. */
  appliedSets(): Map<string, Set<number>> {
    flushCountChanges(this.db);
    const result = new Map<string, Set<number>>();
    for (const row of this.applied.iterate() as Iterable<{ host: string; block: number }>) {
      let blocks = result.get(row.host);
      if (blocks === undefined) result.set(row.host, (blocks = new Set()));
      blocks.add(row.block);
    }
    return result;
  }

  /** Records the set a host's documents are now split with. */
  setApplied(host: string, blocks: ReadonlySet<number>): void {
    flushCountChanges(this.db);
    const id = (this.hostRow.get(host) as HostRow | undefined)?.id;
    if (id === undefined) return;
    this.clearApplied.run(id);
    for (const block of blocks) this.addApplied.run(id, block);
  }

  /**
   * The searchable documents of a host (both schemes), `pageSize` at a time in URL order: each
   * page is read whole, so the caller may write between pages.
   */
  *documentPagesOf(host: string, pageSize: number): Generator<HostDocument[]> {
    for (const scheme of ['http', 'https']) {
      let page = this.hostDocuments.first.all({ scheme, host, limit: pageSize }) as HostDocument[];
      while (page.length > 0) {
        yield page;
        if (page.length < pageSize) break;
        page = this.hostDocuments.after.all({
          scheme,
          host,
          after: page.at(-1)!.url,
          limit: pageSize,
        }) as HostDocument[];
      }
    }
  }
}

/**
 * The template lines of every host by hash, as the counts stand (template-block-hash.ts): on
 * enough pages to become template, or to stay so for a line that is (`template_applied`).
 */
export function templateBlocksOf(
  db: Database.Database,
  { hosts: only, withoutHistory = new Set() }: TemplateJudgement = {},
): Map<string, Set<number>> {
  flushCountChanges(db);
  const hosts = db.prepare('SELECT id, host, pages FROM template_hosts WHERE pages > 0').all() as {
    id: number;
    host: string;
    pages: number;
  }[];
  // A line the host's documents were split with as template stays so down to the lower share.
  // Both thresholds are TEMPLATE_MIN_PAGES or more; saying so lets SQLite use the partial index.
  const blocksOf = db
    .prepare(
      `SELECT b.block FROM template_blocks b
       WHERE b.host_id = @id AND b.pages >= ${TEMPLATE_MIN_PAGES} AND b.pages >= @keep AND (b.pages >= @become
         OR EXISTS (SELECT 1 FROM template_applied a WHERE a.host_id = b.host_id AND a.block = b.block))`,
    )
    .pluck()
    .safeIntegers(false);
  const result = new Map<string, Set<number>>();
  for (const host of hosts) {
    if (only !== undefined && !only.has(host.host)) continue;
    const become = templateThreshold(host.pages);
    const blocks = blocksOf.all({
      id: host.id,
      keep: withoutHistory.has(host.host) ? become : templateThreshold(host.pages, true),
      become,
    }) as number[];
    if (blocks.length > 0) result.set(host.host, new Set(blocks));
  }
  return result;
}

function sameSet(one: ReadonlySet<number>, other: ReadonlySet<number>): boolean {
  if (one.size !== other.size) return false;
  for (const value of one) if (!other.has(value)) return false;
  return true;
}

const NO_BLOCKS: ReadonlySet<number> = new Set();

/**
 * The lengths `previous` found for the hosts of `blocks` whose lines are the same: what a new
 * generation knows before reading a page.
 */
export function knownLineLengths(
  blocks: ReadonlyMap<string, ReadonlySet<number>>,
  previous: TemplateLinesWithLengths | undefined,
): Map<string, ReadonlySet<number>> {
  const known = new Map<string, ReadonlySet<number>>();
  if (previous === undefined) return known;
  for (const [host, lengths] of previous.lineLengths) {
    const template = blocks.get(host);
    if (template !== undefined && sameSet(previous.blocks.get(host) ?? NO_BLOCKS, template))
      known.set(host, lengths);
  }
  return known;
}
