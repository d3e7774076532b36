import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { BlobLocation } from '../config/index.js';
import type { FileGroupStore, GroupFile } from './file-groups.js';
import { UPLOAD_PART_BYTES } from './s3-artifact-store.js';
import type { S3Objects } from './s3-objects.js';

/** Files as objects `<prefix>/<folder>/<group>/<name>` in the bucket of the artifacts (folder `pieces`, `indexes`). */
export class S3FileGroups implements FileGroupStore {
  constructor(
    private readonly objects: S3Objects,
    private readonly location: BlobLocation,
    private readonly folder: string,
  ) {}

  private prefixOf(group: number): string {
    const { prefix } = this.location;
    return `${prefix === '' ? '' : `${prefix}/`}${this.folder}/${group}/`;
  }

  async save(group: number, name: string, file: string): Promise<void> {
    const upload = new Upload({
      client: this.objects.client,
      params: {
        Bucket: this.objects.bucket,
        Key: `${this.prefixOf(group)}${name}`,
        Body: createReadStream(file),
      },
      partSize: UPLOAD_PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async open(group: number, name: string): Promise<Readable | undefined> {
    return (await this.objects.get(`${this.prefixOf(group)}${name}`))?.body;
  }

  async exists(group: number, name: string): Promise<boolean> {
    return this.objects.exists(`${this.prefixOf(group)}${name}`);
  }

  async list(group: number): Promise<GroupFile[]> {
    const prefix = this.prefixOf(group);
    return (await this.objects.list(prefix)).map((object) => ({
      name: object.key.slice(prefix.length),
      bytes: object.bytes,
      modifiedMs: object.modifiedMs,
    }));
  }

  async remove(group: number, name: string): Promise<void> {
    await this.objects.delete([`${this.prefixOf(group)}${name}`]);
  }

  async removeAll(group: number): Promise<void> {
    const objects = await this.objects.list(this.prefixOf(group));
    await this.objects.delete(objects.map((object) => object.key));
  }
}
