import type { Readable } from 'node:stream';
import type { ArtifactFileName } from '../domain/index.js';

/** A run's file opened for reading: its bytes as a stream and their number. */
export interface OpenedArtifact {
  stream: Readable;
  bytes: number;
}

/**
 * Where the finished files of runs are kept (docs/design/storage.md, Artifact storage): the local
 * data directory, or an S3-compatible object store. The packager always writes into a local
 * folder; `publish` makes what it wrote downloadable. Every reader goes through this interface.
 */
export interface ArtifactStore {
  /** Local folder the packager writes a run's files into (for object storage, a staging folder). */
  folderFor(runId: number): string;

  /**
   * Makes the files packaged into `folderFor(runId)` the run's stored files. Called before the run
   * is recorded as ended, so an ended run's files are always there; throws when they cannot be
   * stored.
   */
  publish(runId: number): Promise<void>;

  /** A readable stream and size of a run's file, or undefined when the file is missing. */
  open(runId: number, file: ArtifactFileName): Promise<OpenedArtifact | undefined>;

  /** `bytes` bytes of a run's file from `offset` (one page of the bundle); undefined when missing. */
  readRange(
    runId: number,
    file: ArtifactFileName,
    offset: number,
    bytes: number,
  ): Promise<Buffer | undefined>;

  /**
   * A local path of the run's report (docs/design/crawl.md, Run reports and live progress), a
   * SQLite file read in place; undefined when the run has none. Object storage downloads it once
   * into a cache folder.
   */
  reportFile(runId: number, reportFile: string): Promise<string | undefined>;

  /**
   * Calls `use` with a local path holding the run's file, for readers that need a file (`kumo
   * index`); undefined without calling it when the file is missing. Object storage downloads the
   * file into a temporary file removed afterwards.
   */
  withLocalFile<T>(
    runId: number,
    file: ArtifactFileName,
    use: (path: string) => Promise<T>,
  ): Promise<T | undefined>;

  /** The bytes the run's stored files take (artifacts and report); 0 when none. */
  storedBytes(runId: number): Promise<number>;

  /**
   * Why runs' files cannot be stored now (the folder, or the bucket), or undefined when they can:
   * the health check's `blob_store`. Names no path nor endpoint.
   */
  healthProblem(): Promise<string | undefined>;

  /** Removes every file of the run (stored, staged and cached). */
  remove(runId: number): Promise<void>;

  /**
   * A URL from which a client downloads the file directly for `seconds`, as an attachment named
   * `filename`; undefined when the file is missing. Only stores that clients can reach themselves
   * have it.
   */
  presignedUrl?(
    runId: number,
    file: ArtifactFileName,
    filename: string,
    seconds: number,
  ): Promise<string | undefined>;
}
