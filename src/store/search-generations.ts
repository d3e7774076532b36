/**
 * Published generations of search indexes, in a store several processes share
 * (docs/design/scale-out.md, Search nodes): one writer per search service at a time (a lease)
 * publishes each new state of its index as an immutable file; every search node serves the newest
 * and is told of the next.
 */
export interface SearchGeneration {
  serviceId: number;
  /** 1, 2, ... per service: a later generation holds every change of the earlier ones. */
  generation: number;
  /** The file's name in its group (src/blob/file-groups.ts, folder `indexes`, group the service). */
  name: string;
  bytes: number;
  documents: number;
  publishedMicros: number;
}

/** The writer lease of a search service ended before its generation was recorded: nothing was. */
export class WriterLeaseLostError extends Error {
  override name = 'WriterLeaseLostError';
}

export interface SearchGenerationStore {
  /** Takes or renews the writer lease of a service for `owner` (`leaseMs` from now); false when another holds it. */
  takeWriter(serviceId: number, owner: string, leaseMs: number): Promise<boolean>;
  /** Ends the lease if `owner` holds it. */
  releaseWriter(serviceId: number, owner: string): Promise<void>;
  /** Ends every writer lease (the sole server of a database, at its start: their holders are gone). */
  releaseAllWriters(): Promise<void>;
  /**
   * Records the next generation of a service and tells every listener, if `owner` still holds the
   * writer lease and the newest generation is still `basedOn`, the one its index was written
   * from (else WriterLeaseLostError: another process wrote meanwhile); answers its number.
   */
  publish(
    serviceId: number,
    owner: string,
    file: { name: string; bytes: number; documents: number },
    basedOn: number,
    nowMicros: number,
  ): Promise<number>;
  /** The newest generation of a service, if any was published. */
  current(serviceId: number): Promise<SearchGeneration | undefined>;
  /** Forgets all but the `keep` newest generations of a service; answers those forgotten (their files go next). */
  prune(serviceId: number, keep: number): Promise<SearchGeneration[]>;
  /**
   * Calls `published` for each generation any process publishes from now on, and `connected`
   * whenever the listening connection (re)connects, since what was published while it was away
   * was not told. Resolves once listening.
   */
  listen(
    published: (serviceId: number, generation: number) => void,
    connected: () => void,
  ): Promise<{ close(): Promise<void> }>;
}
