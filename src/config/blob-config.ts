import { ConfigError } from './config-error.js';

/** The bucket and key prefix of KUMO_BLOB_URL (docs/operations.md, Object storage). */
export interface BlobLocation {
  bucket: string;
  /** Key prefix without leading or trailing slash; '' for the bucket's root. */
  prefix: string;
}

/** How a download reaches the client (KUMO_BLOB_DOWNLOADS). */
export type BlobDownloads = 'kumo' | 'presigned';

export const BLOB_DOWNLOADS: readonly BlobDownloads[] = ['kumo', 'presigned'];

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * `s3://bucket/optional/prefix`, or unset (empty) for the local data directory. Anything else is
 * refused at start rather than at the first run's end.
 */
export function parseBlobUrl(raw: string, name: string): BlobLocation | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([^?#]*)$/.exec(value);
  if (match === null || match[1]!.toLowerCase() !== 's3')
    throw new ConfigError(`${name}: expected s3://bucket/optional/prefix, got "${raw}"`);
  const bucket = match[2]!;
  if (bucket === '') throw new ConfigError(`${name}: the bucket is missing, got "${raw}"`);
  if (!BUCKET_NAME.test(bucket))
    throw new ConfigError(
      `${name}: "${bucket}" is not a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)`,
    );
  const prefix = match[3]!
    .split('/')
    .filter((part) => part !== '')
    .join('/');
  return { bucket, prefix };
}

/** Presigned downloads point clients at the object store: there must be one. */
export function checkBlobDownloads(
  blobUrl: BlobLocation | undefined,
  downloads: BlobDownloads,
  names: { url: string; downloads: string },
): void {
  if (downloads === 'presigned' && blobUrl === undefined)
    throw new ConfigError(`${names.downloads}: presigned needs object storage (${names.url})`);
}
