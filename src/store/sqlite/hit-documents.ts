/**
 * Reading a hit as a result page shows it (docs/architecture.md, Search requests): the same
 * statements on the index's own connection (SearchIndexStore) and on the read-only connection
 * of a thread that cuts a page's hits (HitDocumentReader).
 */
import Database from 'better-sqlite3';
import type { Doctype } from '../../domain/doctype.js';

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
  /** The body's first code points, as many as asked for. */
  bodyHead: string;
  /** Whether `bodyHead` is the whole body. */
  bodyComplete: boolean;
}

/**
 * Most bodies are read whole: cutting one costs more than reading it. Only a body of more bytes
 * than the code points asked for is cut (and counted, to tell whether the cut left anything out).
 */
export const HIT_DOCUMENT_SQL = `SELECT id, url, title, description,
    CASE WHEN octet_length(body) <= @chars THEN body ELSE substr(body, 1, @chars) END AS bodyHead,
    octet_length(body) <= @chars OR length(body) <= @chars AS bodyComplete,
    content_size AS contentSize, last_modified AS lastModified, doctype
  FROM documents WHERE id = @id`;

export const WHOLE_BODY_SQL = 'SELECT body FROM documents WHERE id = ?';

type HitRow = Omit<HitDocument, 'bodyComplete'> & { bodyComplete: number };

/** The row of HIT_DOCUMENT_SQL as a HitDocument. */
export function hitDocumentOf(row: unknown): HitDocument | undefined {
  if (row === undefined) return undefined;
  const hit = row as HitRow;
  return { ...hit, bodyComplete: hit.bodyComplete === 1 };
}

/** Where a page's hits are read from: the index itself, or a thread's own connection to its file. */
export interface HitDocumentSource {
  hitDocument(id: number, bodyChars: number): HitDocument | undefined;
  wholeBody(id: number): string | undefined;
}

/**
 * A read-only connection to an index file, for a thread that cuts result pages: in WAL mode it
 * reads while the index's own connection writes, and sees each batch whole once committed.
 */
export class HitDocumentReader implements HitDocumentSource {
  private readonly db: Database.Database;
  private readonly hitStatement: Database.Statement;
  private readonly bodyStatement: Database.Statement;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.db.pragma('busy_timeout = 5000');
    this.hitStatement = this.db.prepare(HIT_DOCUMENT_SQL);
    this.bodyStatement = this.db.prepare(WHOLE_BODY_SQL).pluck();
  }

  hitDocument(id: number, bodyChars: number): HitDocument | undefined {
    return hitDocumentOf(this.hitStatement.get({ chars: bodyChars, id }));
  }

  wholeBody(id: number): string | undefined {
    return this.bodyStatement.get(id) as string | undefined;
  }

  close(): void {
    this.db.close();
  }
}
