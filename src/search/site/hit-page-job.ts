/**
 * A result page's hits cut in a thread of the HitPagePool (docs/design/search-engine.md, Search
 * requests): the messages between the pool and its threads. Everything is plain data: the
 * query's highlight terms instead of a compiled highlighter, the template lines of the index's
 * generation only when the thread does not hold them yet.
 */
import type { QueryTerm } from '../highlight/query-terms.js';
import type { HitTemplates } from '../template-blocks.js';
import type { PageHit } from './organic-docs.js';
import type { OrganicDoc } from './search-response.js';

export interface HitPageRequest {
  /** SearchIndex.openKey: the thread keeps a read-only connection per key. */
  indexKey: string;
  file: string;
  /** Names `templates` among the template line sets the thread holds. */
  templatesKey: number;
  /** Sent the first time a thread is given `templatesKey`. */
  templates: HitTemplates | undefined;
  terms: readonly QueryTerm[];
  hits: readonly PageHit[];
}

export type HitPageReply = { ok: true; docs: OrganicDoc[] } | { ok: false; reason: string };

/** Template line sets and connections a thread keeps, the least recently used dropped first. */
export const HIT_THREAD_KEEPS = 4;
