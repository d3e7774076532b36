import type Database from 'better-sqlite3';
import { LEGACY_FEED } from '../../domain/index.js';
import { lazyStatements } from './lazy-statements.js';

/** A searchable document with where it is indexed. */
export interface IndexedLocation {
  id: number;
  url: string;
  segmentId: number;
  ordinal: number;
}

/**
 * The claims of an index file: which feeds (a scheduled setting, an instant run, a bundle; see
 * src/search/feed-keys.ts) put or found each document. A scheduled run removes a document it did
 * not reach only when no other feed claims it (docs/api.md, Search feeding). Every
 * method runs inside the caller's write transaction.
 */
export class DocumentClaims {
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = lazyStatements({
      claim: () => db.prepare('INSERT OR IGNORE INTO document_feeds (document_id, feed) VALUES (?, ?)'),
      dropLegacyClaim: () =>
        db.prepare(`DELETE FROM document_feeds WHERE document_id = ? AND feed = '${LEGACY_FEED}'`),
      stageClaim: () =>
        db.prepare('INSERT OR IGNORE INTO staged_claims (run_key, document_id) VALUES (?, ?)'),
      publishClaims: () =>
        db.prepare(
          `INSERT OR IGNORE INTO document_feeds (document_id, feed)
         SELECT c.document_id, ? FROM staged_claims c JOIN documents d ON d.id = c.document_id WHERE c.run_key = ?`,
        ),
      dropLegacyClaims: () =>
        db.prepare(
          `DELETE FROM document_feeds WHERE feed = '${LEGACY_FEED}'
           AND document_id IN (SELECT document_id FROM staged_claims WHERE run_key = ?)`,
        ),
      stagedBy: () => db.prepare('SELECT 1 FROM staged_claims WHERE run_key = ? AND document_id = ?').pluck(),
      dropStagedClaims: () => db.prepare('DELETE FROM staged_claims WHERE run_key = ?'),
      unreachedClaims: () =>
        db.prepare(
          `SELECT d.id, d.url, p.segment_id AS segmentId, p.ordinal FROM document_feeds f
         JOIN documents d ON d.id = f.document_id JOIN document_state p ON p.id = d.id
           JOIN segments s ON s.id = p.segment_id
         WHERE f.feed = ? AND s.staged_run IS NULL
           AND NOT EXISTS (SELECT 1 FROM staged_claims c WHERE c.run_key = ? AND c.document_id = d.id)`,
        ),
      releaseClaim: () => db.prepare('DELETE FROM document_feeds WHERE document_id = ? AND feed = ?'),
      isClaimed: () => db.prepare('SELECT 1 FROM document_feeds WHERE document_id = ? LIMIT 1').pluck(),
      feedsOf: () =>
        db.prepare('SELECT feed FROM document_feeds WHERE document_id = ? ORDER BY feed').pluck(),
      feeds: () => db.prepare('SELECT DISTINCT feed FROM document_feeds ORDER BY feed').pluck(),
      retireToLegacy: () =>
        db.prepare(
          `INSERT OR IGNORE INTO document_feeds (document_id, feed)
         SELECT f.document_id, '${LEGACY_FEED}' FROM document_feeds f WHERE f.feed = ?
           AND NOT EXISTS (SELECT 1 FROM document_feeds o WHERE o.document_id = f.document_id AND o.feed != f.feed)`,
        ),
      dropFeed: () => db.prepare('DELETE FROM document_feeds WHERE feed = ?'),
    });
  }

  /**
   * Records that `feed` put or found the document in the index. A legacy claim gives way: the
   * document now has a known feed (docs/operations.md, Upgrading).
   */
  claim(documentId: number, feed: string): void {
    this.statements.claim.run(documentId, feed);
    if (feed !== LEGACY_FEED) this.statements.dropLegacyClaim.run(documentId);
  }

  /** A claim of a staged run, given to its feed when the run is applied (publishClaims). */
  stageClaim(runKey: string, documentId: number): void {
    this.statements.stageClaim.run(runKey, documentId);
  }

  /** Whether the run staged under `runKey` indexed or found the document. */
  stagedBy(runKey: string, documentId: number): boolean {
    return this.statements.stagedBy.get(runKey, documentId) === 1;
  }

  /** Gives `feed` the claims staged under `runKey` (their legacy claims give way, as in claim). */
  publishClaims(runKey: string, feed: string): void {
    this.statements.publishClaims.run(feed, runKey);
    if (feed !== LEGACY_FEED) this.statements.dropLegacyClaims.run(runKey);
  }

  /** Searchable documents `feed` claims that the run staged under `runKey` did not claim (did not reach). */
  unreachedClaims(runKey: string, feed: string): IndexedLocation[] {
    return this.statements.unreachedClaims.all(feed, runKey) as IndexedLocation[];
  }

  /** Drops one feed's claim; returns whether any feed still claims the document. */
  releaseClaim(documentId: number, feed: string): boolean {
    this.statements.releaseClaim.run(documentId, feed);
    return this.statements.isClaimed.get(documentId) === 1;
  }

  /** The feeds that claim a document, sorted. */
  feedsOf(documentId: number): string[] {
    return this.statements.feedsOf.all(documentId) as string[];
  }

  /** Every feed with a claim in this index, sorted. */
  feeds(): string[] {
    return this.statements.feeds.all() as string[];
  }

  /**
   * Forgets a feed that will never run again: where it was a document's only claim, the document
   * becomes legacy (kept until a feed reaches it); elsewhere its claim is simply dropped.
   */
  retireFeed(feed: string): void {
    this.statements.retireToLegacy.run(feed);
    this.statements.dropFeed.run(feed);
  }

  /** Forgets the claims staged under `runKey` (applied, or the staging dropped). */
  dropStaged(runKey: string): void {
    this.statements.dropStagedClaims.run(runKey);
  }
}
