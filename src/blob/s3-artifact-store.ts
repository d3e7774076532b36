import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobLocation } from '../config/index.js';
import type { ArtifactFileName } from '../domain/index.js';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, fileExists } from '../util/index.js';
import type { ArtifactStore, OpenedArtifact } from './artifact-store.js';
import { folderProblem } from './folder-problem.js';
import type { S3Objects } from './s3-objects.js';

/**
 * Parts of a multipart upload: S3 takes 5 MiB at least; 8 MiB parts keep a 10 000-part upload
 * above 80 GB while two parts in flight hold 16 MiB of memory at most.
 */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

export interface S3ArtifactStoreOptions {
  objects: S3Objects;
  location: BlobLocation;
  /** Local folder the packager writes a run's files into before `publish` (`<data>/artifacts`). */
  stagingRoot: string;
  /** Local folder of downloaded run reports and temporary copies (`<data>/cache/artifacts`). */
  cacheRoot: string;
}

/**
 * Run artifacts in an S3-compatible bucket (docs/design/storage.md, Artifact storage), as objects
 * `<prefix>/runs/<run id>/<file>`. The packager writes into a local staging folder; `publish`
 * uploads its files and removes it. Reports are downloaded once into a cache folder.
 */
/** How long reading one part of a run's file (one page of a bundle) may take before it gives up. */
const RANGE_READ_TIMEOUT_MS = 15_000;

export class S3ArtifactStore implements ArtifactStore {
  private readonly objects: S3Objects;
  /** Reports being downloaded, so concurrent readers of one run share a download. */
  private readonly reportDownloads = new Map<string, Promise<string | undefined>>();

  constructor(private readonly options: S3ArtifactStoreOptions) {
    this.objects = options.objects;
  }

  /** The bucket, and the staging folder the packager writes into before the upload. */
  async healthProblem(): Promise<string | undefined> {
    return (await this.objects.bucketProblem()) ?? (await folderProblem(this.options.stagingRoot));
  }

  folderFor(runId: number): string {
    return path.join(this.options.stagingRoot, String(runId));
  }

  /** The key prefix of a run's objects, ending with a slash. */
  runPrefix(runId: number): string {
    const { prefix } = this.options.location;
    return `${prefix === '' ? '' : `${prefix}/`}runs/${runId}/`;
  }

  keyOf(runId: number, file: string): string {
    return `${this.runPrefix(runId)}${file}`;
  }

  /**
   * Uploads every file of the staging folder, streamed from disk (multipart above one part, so
   * a bundle is never held in memory), then removes the folder. The report goes to the cache
   * rather than away: this process is the likeliest to read it next.
   */
  async publish(runId: number): Promise<void> {
    const folder = this.folderFor(runId);
    let names: string[];
    try {
      names = (await readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const upload = new Upload({
        client: this.objects.client,
        params: {
          Bucket: this.objects.bucket,
          Key: this.keyOf(runId, name),
          Body: createReadStream(path.join(folder, name)),
          ContentType: contentTypeOf(name),
        },
        partSize: UPLOAD_PART_BYTES,
        queueSize: UPLOAD_QUEUE,
        // A failed multipart upload is aborted, so no orphaned parts stay billed in the bucket.
        leavePartsOnError: false,
      });
      await upload.done();
    }
    for (const name of names.filter((file) => file.endsWith('.db'))) {
      const cached = this.cachePath(runId, name);
      await mkdir(path.dirname(cached), { recursive: true, mode: PRIVATE_FOLDER_MODE });
      await rename(path.join(folder, name), cached);
    }
    await rm(folder, { recursive: true, force: true });
  }

  async open(runId: number, file: ArtifactFileName): Promise<OpenedArtifact | undefined> {
    const object = await this.objects.get(this.keyOf(runId, file));
    return object && { stream: object.body, bytes: object.bytes };
  }

  async readRange(
    runId: number,
    file: ArtifactFileName,
    offset: number,
    bytes: number,
  ): Promise<Buffer | undefined> {
    if (bytes <= 0) return (await this.storedObject(runId, file)) ? Buffer.alloc(0) : undefined;
    // A part is one page: a store that stalls gives up rather than hold a connection of the shared
    // client, and one that ignores the range (answering the whole object) is not read whole.
    const signal = AbortSignal.timeout(RANGE_READ_TIMEOUT_MS);
    const object = await this.objects.get(
      this.keyOf(runId, file),
      `bytes=${offset}-${offset + bytes - 1}`,
      signal,
    );
    if (object === undefined) return undefined;
    if (object.bytes !== bytes) {
      object.body.destroy();
      return undefined;
    }
    const buffer = await readAll(object.body, signal);
    return buffer.length === bytes ? buffer : undefined;
  }

  async reportFile(runId: number, reportFile: string): Promise<string | undefined> {
    const cached = this.cachePath(runId, reportFile);
    if (await fileExists(cached)) return cached;
    const key = this.keyOf(runId, reportFile);
    let download = this.reportDownloads.get(key);
    if (download === undefined) {
      download = this.download(key, cached).finally(() => this.reportDownloads.delete(key));
      this.reportDownloads.set(key, download);
    }
    return download;
  }

  async withLocalFile<T>(
    runId: number,
    file: ArtifactFileName,
    use: (path: string) => Promise<T>,
  ): Promise<T | undefined> {
    const temporary = this.cachePath(runId, `${file}.${randomBytes(6).toString('hex')}.download`);
    try {
      if ((await this.download(this.keyOf(runId, file), temporary)) === undefined) return undefined;
      return await use(temporary);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async storedBytes(runId: number): Promise<number> {
    const objects = await this.objects.list(this.runPrefix(runId));
    return objects.reduce((sum, object) => sum + object.bytes, 0);
  }

  /** Deletes the run's objects (every page of the listing), its staging folder and its cache. */
  async remove(runId: number): Promise<void> {
    try {
      const objects = await this.objects.list(this.runPrefix(runId));
      await this.objects.delete(objects.map((object) => object.key));
    } finally {
      // The local copies go even when the store cannot be reached: a full disk gets its space back.
      await Promise.all([
        rm(this.folderFor(runId), { recursive: true, force: true }),
        rm(path.join(this.options.cacheRoot, String(runId)), { recursive: true, force: true }),
      ]);
    }
  }

  async presignedUrl(
    runId: number,
    file: ArtifactFileName,
    filename: string,
    seconds: number,
  ): Promise<string | undefined> {
    // A link to a missing object would answer the object store's own error page, not Kumo's 404.
    if (!(await this.objects.exists(this.keyOf(runId, file)))) return undefined;
    const command = new GetObjectCommand({
      Bucket: this.objects.bucket,
      Key: this.keyOf(runId, file),
      ResponseContentDisposition: `attachment; filename="${filename}"`,
      ResponseContentType: contentTypeOf(file),
    });
    return getSignedUrl(this.objects.client, command, { expiresIn: seconds });
  }

  private cachePath(runId: number, file: string): string {
    return path.join(this.options.cacheRoot, String(runId), file);
  }

  private async storedObject(runId: number, file: string): Promise<boolean> {
    const objects = await this.objects.list(this.keyOf(runId, file));
    return objects.some((object) => object.key === this.keyOf(runId, file));
  }

  /**
   * Writes the object to `target` (under a temporary name, renamed when complete, so a reader
   * never opens half a file); undefined when there is no such object.
   */
  private async download(key: string, target: string): Promise<string | undefined> {
    const object = await this.objects.get(key);
    if (object === undefined) return undefined;
    await mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(object.body, createWriteStream(partial, { mode: PRIVATE_FILE_MODE }));
      const written = (await stat(partial)).size;
      if (written !== object.bytes)
        throw new Error(`downloading ${key} gave ${written} bytes of ${object.bytes}`);
      await rename(partial, target);
      return target;
    } finally {
      await rm(partial, { force: true });
    }
  }
}

function contentTypeOf(file: string): string {
  if (file.endsWith('.gz')) return 'application/gzip';
  if (file.endsWith('.db')) return 'application/vnd.sqlite3';
  return 'application/octet-stream';
}

async function readAll(stream: Readable, signal?: AbortSignal): Promise<Buffer> {
  const abort = () => stream.destroy(signal?.reason as Error);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}
