import type { EvalDocument } from './page-documents.js';

/** A system under evaluation: it indexes the corpus once, then answers queries with ranked URLs. */
export interface SearchSystem {
  readonly name: string;
  index(documents: readonly EvalDocument[]): void;
  /** URLs of the top `limit` results, best first. */
  search(query: string, limit: number): string[];
  close(): void;
}
