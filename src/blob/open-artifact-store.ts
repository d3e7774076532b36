import type { BlobLocation } from '../config/blob-config.js';
import type { ArtifactStore } from './artifact-store.js';
import { LocalArtifactStore } from './local-artifact-store.js';
import { S3ArtifactStore } from './s3-artifact-store.js';
import { s3ClientFromEnv } from './s3-client.js';
import { S3Objects } from './s3-objects.js';
import { type FileGroupStore, LocalFileGroups, S3FileGroups } from './file-groups.js';

/**
 * The artifact store of KUMO_BLOB_URL (docs/operations.md, Object storage): the data directory's
 * artifact folder when unset, else the bucket, with the artifact folder as staging and
 * `cacheRoot` for downloaded reports. `env` holds the AWS SDK's variables.
 */
export function openArtifactStore(
  blobUrl: BlobLocation | undefined,
  folders: { artifacts: string; cacheRoot: string },
  env: NodeJS.ProcessEnv = process.env,
): ArtifactStore {
  if (blobUrl === undefined) return new LocalArtifactStore(folders.artifacts);
  return new S3ArtifactStore({
    objects: new S3Objects(s3ClientFromEnv(env), blobUrl.bucket),
    location: blobUrl,
    stagingRoot: folders.artifacts,
    cacheRoot: folders.cacheRoot,
  });
}

/**
 * Where files kept in groups go (file-groups.ts): the bucket's `<folder>` when artifacts go to
 * object storage, else `localRoot` in the data directory, which only processes on that directory
 * can read.
 */
export function openFileGroups(
  folder: 'pieces' | 'indexes',
  blobUrl: BlobLocation | undefined,
  localRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): FileGroupStore {
  if (blobUrl === undefined) return new LocalFileGroups(localRoot);
  return new S3FileGroups(new S3Objects(s3ClientFromEnv(env), blobUrl.bucket), blobUrl, folder);
}
