import { runExtraction } from './extraction-sandbox.js';

/** Formats besides HTML whose text the search index takes, named by file extension. */
export type ExtractableKind = 'pdf' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'ppt' | 'pptx';

export interface ExtractedText {
  /** The title in the document's own metadata, else ''. */
  title: string;
  /** Visible text, whitespace collapsed, '\n' between paragraphs, rows, pages and slides. */
  body: string;
}

export interface ExtractOptions {
  /** Most characters of body kept; the rest of the document is not read. */
  maxChars?: number;
  /** Wall-clock limit on one document; the extraction is killed past it. */
  timeoutMs?: number;
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
 * ceiling and a time limit, so a hostile file costs at most that and rejects with DocumentTextError.
 */
export async function extractDocumentText(
  bytes: Uint8Array,
  kind: ExtractableKind,
  options: ExtractOptions = {},
): Promise<ExtractedText> {
  const maxChars = Math.max(0, Math.floor(options.maxChars ?? DEFAULT_MAX_CHARS));
  const timeoutMs = Math.max(1, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const reply = await runExtraction({ bytes, kind, maxChars }, timeoutMs);
  if (!reply.ok) throw new DocumentTextError(kind, reply.reason);
  return { title: reply.title, body: reply.body };
}
