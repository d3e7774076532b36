import type { BlobLocation } from '../config/index.js';
import type { ArtifactStore } from './artifact-store.js';
import type { FileGroupStore } from './file-groups.js';
import { S3ArtifactStore } from './s3-artifact-store.js';
import { s3ClientFromEnv } from './s3-client.js';
import { S3FileGroups } from './s3-file-groups.js';
import { S3Objects } from './s3-objects.js';

/**
 * The bucket's side of open-artifact-store.ts, which imports this module only when KUMO_BLOB_URL
 * names a bucket: the AWS SDK is several MB of code a service on its data directory never runs.
 */

export function s3ArtifactStore(
  blobUrl: BlobLocation,
  folders: { artifacts: string; cacheRoot: string },
  env: NodeJS.ProcessEnv,
): ArtifactStore {
  return new S3ArtifactStore({
    objects: new S3Objects(s3ClientFromEnv(env), blobUrl.bucket),
    location: blobUrl,
    stagingRoot: folders.artifacts,
    cacheRoot: folders.cacheRoot,
  });
}

export function s3FileGroups(
  folder: 'pieces' | 'indexes',
  blobUrl: BlobLocation,
  env: NodeJS.ProcessEnv,
): FileGroupStore {
  return new S3FileGroups(new S3Objects(s3ClientFromEnv(env), blobUrl.bucket), blobUrl, folder);
}
