import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobLocation } from '../config/blob-config.js';
import { PRIVATE_FOLDER_MODE } from '../util/private-files.js';
import { UPLOAD_PART_BYTES } from './s3-artifact-store.js';
import type { S3Objects } from './s3-objects.js';

/**
 * The page files of running runs saved with their checkpoints (docs/architecture.md, Run leases):
 * each piece holds the bundle members of the pages of one checkpoint, so a worker resuming the run
 * elsewhere rebuilds its object spool from them. A piece is named by the worker that wrote it and
 * a counter of its own, so a worker that lost the run never overwrites a piece another one uses.
 */
export interface RunPieceStore {
  /** Stores the local file as the run's piece `name`. */
  save(runId: number, name: string, file: string): Promise<void>;
  /** The piece's bytes, or undefined when it is missing. */
  open(runId: number, name: string): Promise<Readable | undefined>;
  /** Removes every piece of the run (it has ended). */
  removeAll(runId: number): Promise<void>;
}

/** Pieces in a folder of the data directory (`<data>/pieces/<run id>/<name>`). */
export class LocalRunPieceStore implements RunPieceStore {
  constructor(private readonly root: string) {}

  async save(runId: number, name: string, file: string): Promise<void> {
    const folder = path.join(this.root, String(runId));
    await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await copyFile(file, path.join(folder, name));
  }

  async open(runId: number, name: string): Promise<Readable | undefined> {
    const stream = createReadStream(path.join(this.root, String(runId), name));
    return new Promise((resolve) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', () => resolve(undefined));
    });
  }

  async removeAll(runId: number): Promise<void> {
    await rm(path.join(this.root, String(runId)), { recursive: true, force: true });
  }
}

/** Pieces as objects `<prefix>/pieces/<run id>/<name>` in the bucket of the artifacts. */
export class S3RunPieceStore implements RunPieceStore {
  constructor(
    private readonly objects: S3Objects,
    private readonly location: BlobLocation,
  ) {}

  private prefixOf(runId: number): string {
    const { prefix } = this.location;
    return `${prefix === '' ? '' : `${prefix}/`}pieces/${runId}/`;
  }

  async save(runId: number, name: string, file: string): Promise<void> {
    const upload = new Upload({
      client: this.objects.client,
      params: {
        Bucket: this.objects.bucket,
        Key: `${this.prefixOf(runId)}${name}`,
        Body: createReadStream(file),
      },
      partSize: UPLOAD_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async open(runId: number, name: string): Promise<Readable | undefined> {
    return (await this.objects.get(`${this.prefixOf(runId)}${name}`))?.body;
  }

  async removeAll(runId: number): Promise<void> {
    const objects = await this.objects.list(this.prefixOf(runId));
    await this.objects.delete(objects.map((object) => object.key));
  }
}
