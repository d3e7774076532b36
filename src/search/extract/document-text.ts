import type { ExtractableKind } from './extractable-kind.js';
import { ExtractionPool } from './extraction-pool.js';

export type { ExtractableKind } from './extractable-kind.js';

export interface ExtractedText {
  /** The title in the document's own metadata, else ''. */
  title: string;
  /** Visible text, whitespace collapsed, '\n' between paragraphs, rows, pages and slides. */
  body: string;
}

export interface ExtractOptions {
  /** Most characters of body kept; the rest of the document is not read. */
  maxChars?: number;
  /** Wall-clock limit on one document, from when its extraction starts; it is killed past it. */
  timeoutMs?: number;
  /**
   * Whose document it is (a contract): owners take turns at the extraction threads, and one
   * owner's documents are extracted one at a time (extraction-pool.ts). Default: one owner for all.
   */
  owner?: string | undefined;
}

/** A document whose text could not be extracted: broken, encrypted, unsupported or too costly. */
export class DocumentTextError extends Error {
  override readonly name = 'DocumentTextError';

  constructor(
    readonly kind: ExtractableKind,
    readonly reason: string,
  ) {
    super(`cannot extract text from ${kind}: ${reason}`);
  }
}

const KINDS: ReadonlySet<string> = new Set<ExtractableKind>([
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
]);
const DEFAULT_MAX_CHARS = 1_000_000;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_OWNER = '';
/** The extraction threads of the process, shared by every caller. */
const pool = new ExtractionPool();

/** The kind of a bundle file by its extension ('source.pdf' -> 'pdf'), or undefined for other files. */
export function extractableKindOf(fileName: string): ExtractableKind | undefined {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot < 0) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  return KINDS.has(extension) ? (extension as ExtractableKind) : undefined;
}

/**
 * Title and body text of a PDF or office document. Parsing runs in a worker thread with a memory
 * ceiling and a time limit, so a hostile file costs at most that and rejects with DocumentTextError;
 * the threads are shared fairly between owners (ExtractOptions.owner).
 */
export async function extractDocumentText(
  bytes: Uint8Array,
  kind: ExtractableKind,
  options: ExtractOptions = {},
): Promise<ExtractedText> {
  const maxChars = Math.max(0, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const reply = await pool.run(options.owner ?? DEFAULT_OWNER, { bytes, kind, maxChars }, timeoutMs);
  if (!reply.ok) throw new DocumentTextError(kind, reply.reason);
  return { title: reply.title, body: reply.body };
}
