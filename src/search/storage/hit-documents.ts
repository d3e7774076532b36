/**
 * Reading a hit as a result page shows it (docs/design/search-engine.md, Search requests): the same
 * statements on the index's own connection (SearchIndexStore) and on the read-only connection
 * of a thread that cuts a page's hits (HitDocumentReader).
 */
import Database from 'better-sqlite3';
import type { Doctype } from '../../domain/index.js';
import { headTextOfRuns } from '../display-head.js';
import type { DisplayHeadRow } from './display-head-rows.js';

/**
 * What a result page shows of a hit: the stored document (search-index-store.ts) without the
 * fields only indexing reads, and only the start of its body.
 */
export interface HitDocument {
  id: number;
  url: string;
  title: string;
  description: string;
  contentSize: number;
  lastModified: number;
  doctype: Doctype;
  /** The body's first code points, as many as asked for; '' when the display head was read instead. */
  bodyHead: string;
  /** Whether `bodyHead` is the whole body. */
  bodyComplete: boolean;
  /** The version's display head, when one is stored (src/search/display-head.ts). */
  displayHead: DisplayHeadRow | undefined;
}

/**
 * A document whose version has its display head stored as text is read without its body; one
 * whose head is stored as runs of its body (a short body, display-head.ts) reads the body as far
 * as the runs reach. Otherwise most bodies are read whole: cutting one costs more than reading
 * it. Only a body of more bytes than the code points asked for is cut (and counted, to tell
 * whether the cut left anything out).
 */
export const HIT_DOCUMENT_SQL = `SELECT d.id, d.url, d.title, d.description,
    CASE WHEN h.id IS NOT NULL AND h.runs IS NULL THEN ''
      WHEN h.id IS NOT NULL THEN replace(substr(d.body, 1, h.body_end), char(10), ' ')
      WHEN octet_length(d.body) <= @chars THEN d.body
      ELSE substr(d.body, 1, @chars) END AS bodyHead,
    h.id IS NULL AND (octet_length(d.body) <= @chars OR length(d.body) <= @chars) AS bodyComplete,
    d.content_size AS contentSize, d.last_modified AS lastModified, d.doctype,
    h.head AS headText, h.more AS headMore, h.lines AS headLines, h.runs AS headRuns
  FROM documents d LEFT JOIN display_heads h ON h.id = d.id AND h.content_hash = d.content_hash
  WHERE d.id = @id`;

/** The body's start alone, as HIT_DOCUMENT_SQL reads it without a display head. */
export const BODY_HEAD_SQL = `SELECT
    CASE WHEN octet_length(body) <= @chars THEN body ELSE substr(body, 1, @chars) END AS bodyHead,
    octet_length(body) <= @chars OR length(body) <= @chars AS bodyComplete
  FROM documents WHERE id = @id`;

export const WHOLE_BODY_SQL = 'SELECT body FROM documents WHERE id = ?';

/**
 * The start of the text a page keeps apart from its body (its template by markup and its link
 * entries, docs/reference/site-search.md, Listing pages), as many code points as asked for.
 */
export const LINK_TEXT_SQL = 'SELECT substr(template, 1, @chars) FROM documents WHERE id = @id';

/** The start of a body: its first code points, and whether they are the whole body. */
export interface BodyHead {
  bodyHead: string;
  bodyComplete: boolean;
}

/** The row of BODY_HEAD_SQL as a BodyHead. */
export function bodyHeadOf(row: unknown): BodyHead | undefined {
  if (row === undefined) return undefined;
  const { bodyHead, bodyComplete } = row as { bodyHead: string; bodyComplete: number };
  return { bodyHead, bodyComplete: bodyComplete === 1 };
}

type HitRow = Omit<HitDocument, 'bodyComplete' | 'displayHead'> & {
  bodyComplete: number;
  headText: string | null;
  headMore: number | null;
  headLines: Buffer | null;
  headRuns: Buffer | null;
};

/** The row of HIT_DOCUMENT_SQL as a HitDocument. */
export function hitDocumentOf(row: unknown): HitDocument | undefined {
  if (row === undefined) return undefined;
  const { headText, headMore, headLines, headRuns, bodyComplete, bodyHead, ...hit } = row as HitRow;
  if (headText === null)
    return { ...hit, bodyHead, bodyComplete: bodyComplete === 1, displayHead: undefined };
  const text = headRuns === null ? headText : headTextOfRuns(bodyHead, headRuns);
  return {
    ...hit,
    bodyHead: '',
    bodyComplete: false,
    displayHead: { text, more: headMore === 1, lines: headLines! },
  };
}

/** Where a page's hits are read from: the index itself, or a thread's own connection to its file. */
export interface HitDocumentSource {
  hitDocument(id: number, bodyChars: number): HitDocument | undefined;
  bodyHead(id: number, bodyChars: number): BodyHead | undefined;
  wholeBody(id: number): string | undefined;
  /** The start of the page's link text (LINK_TEXT_SQL). */
  linkText(id: number, chars: number): string | undefined;
}

/**
 * A read-only connection to an index file, for a thread that cuts result pages: in WAL mode it
 * reads while the index's own connection writes, and sees each batch whole once committed.
 */
export class HitDocumentReader implements HitDocumentSource {
  private readonly db: Database.Database;
  private readonly hitStatement: Database.Statement;
  private readonly bodyHeadStatement: Database.Statement;
  private readonly bodyStatement: Database.Statement;
  private readonly linkTextStatement: Database.Statement;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    this.hitStatement = this.db.prepare(HIT_DOCUMENT_SQL);
    this.bodyHeadStatement = this.db.prepare(BODY_HEAD_SQL);
    this.bodyStatement = this.db.prepare(WHOLE_BODY_SQL).pluck();
    this.linkTextStatement = this.db.prepare(LINK_TEXT_SQL).pluck();
  }

  hitDocument(id: number, bodyChars: number): HitDocument | undefined {
    return hitDocumentOf(this.hitStatement.get({ chars: bodyChars, id }));
  }

  bodyHead(id: number, bodyChars: number): BodyHead | undefined {
    return bodyHeadOf(this.bodyHeadStatement.get({ chars: bodyChars, id }));
  }

  wholeBody(id: number): string | undefined {
    return this.bodyStatement.get(id) as string | undefined;
  }

  linkText(id: number, chars: number): string | undefined {
    return this.linkTextStatement.get({ id, chars }) as string | undefined;
  }

  close(): void {
    this.db.close();
  }
}
