import {
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';

/** The S3 operations of the artifact store on one bucket: listing, reading and deleting by key. */
export class S3Objects {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  /**
   * The object's body and length, or undefined when there is no such object (or range); `signal`
   * abandons the request (and the body's reading) when it aborts.
   */
  async get(
    key: string,
    range?: string,
    signal?: AbortSignal,
  ): Promise<{ body: Readable; bytes: number } | undefined> {
    let answer: GetObjectCommandOutput;
    try {
      answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range !== undefined && { Range: range }) }),
        signal === undefined ? {} : { abortSignal: signal },
      );
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (answer.Body === undefined) return undefined;
    return { body: answer.Body as Readable, bytes: answer.ContentLength ?? 0 };
  }

  /** Whether the object is there (one HEAD request). */
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /**
   * Why the bucket cannot be used, or undefined when it answers (one HEAD request). Names the
   * bucket's answer, never the endpoint or the credentials (the health check is public).
   */
  async bucketProblem(): Promise<string | undefined> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return undefined;
    } catch (error) {
      const { name, $metadata, code } = (error ?? {}) as {
        name?: string;
        code?: string;
        $metadata?: { httpStatusCode?: number };
      };
      const status = $metadata?.httpStatusCode;
      if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket')
        return 'the bucket does not exist';
      if (status === 403) return 'the bucket refuses the credentials';
      return `the object storage cannot be reached (${code ?? name ?? (status === undefined ? 'error' : `HTTP ${status}`)})`;
    }
  }

  /** Every object under `prefix` with its size and last write, over as many pages as the listing takes. */
  async list(prefix: string): Promise<{ key: string; bytes: number; modifiedMs: number }[]> {
    const objects: { key: string; bytes: number; modifiedMs: number }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const entry of page.Contents ?? []) {
        if (entry.Key === undefined) continue;
        objects.push({
          key: entry.Key,
          bytes: entry.Size ?? 0,
          modifiedMs: entry.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return objects;
  }

  /** Deletes the objects, 1000 a request (the most DeleteObjects takes); throws when one fails. */
  async delete(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const answer = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        const first = failed[0]!;
        throw new Error(
          `deleting ${failed.length} object(s) failed, first ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim(),
        );
      }
    }
  }
}

const DELETE_BATCH = 1000;

/** A missing key, or a range beyond the object's end; a missing bucket is a fault, not a missing file. */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as { name?: unknown; $metadata?: { httpStatusCode?: number } };
  if (name === 'NoSuchBucket') return false;
  return (
    name === 'NoSuchKey' ||
    name === 'NotFound' ||
    name === 'InvalidRange' ||
    $metadata?.httpStatusCode === 404 ||
    $metadata?.httpStatusCode === 416
  );
}
