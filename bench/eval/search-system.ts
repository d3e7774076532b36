import type { EvalCorpus } from './eval-corpus.js';

/** A system under evaluation: it indexes the corpus once, then answers queries with ranked URLs. */
export interface SearchSystem {
  readonly name: string;
  index(corpus: EvalCorpus): void | Promise<void>;
  /** The set's URLs of the top `limit` results, best first. */
  search(query: string, limit: number): string[] | Promise<string[]>;
  close(): void | Promise<void>;
}
