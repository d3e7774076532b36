import type { BlobLocation } from '../config/index.js';
import type { ArtifactStore } from './artifact-store.js';
import { type FileGroupStore, LocalFileGroups } from './file-groups.js';
import { LocalArtifactStore } from './local-artifact-store.js';

/**
 * The artifact store of KUMO_BLOB_URL (docs/operations.md, Object storage): the data directory's
 * artifact folder when unset, else the bucket, with the artifact folder as staging and
 * `cacheRoot` for downloaded reports. `env` holds the AWS SDK's variables. The SDK is loaded only
 * for a bucket (s3-storage.ts).
 */
export async function openArtifactStore(
  blobUrl: BlobLocation | undefined,
  folders: { artifacts: string; cacheRoot: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ArtifactStore> {
  if (blobUrl === undefined) return new LocalArtifactStore(folders.artifacts);
  const { s3ArtifactStore } = await import('./s3-storage.js');
  return s3ArtifactStore(blobUrl, folders, env);
}

/**
 * Where files kept in groups go (file-groups.ts): the bucket's `<folder>` when artifacts go to
 * object storage, else `localRoot` in the data directory, which only processes on that directory
 * can read.
 */
export async function openFileGroups(
  folder: 'pieces' | 'indexes',
  blobUrl: BlobLocation | undefined,
  localRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<FileGroupStore> {
  if (blobUrl === undefined) return new LocalFileGroups(localRoot);
  const { s3FileGroups } = await import('./s3-storage.js');
  return s3FileGroups(folder, blobUrl, env);
}
