import type { BlobLocation } from '../config/blob-config.js';
import type { ArtifactStore } from './artifact-store.js';
import { LocalArtifactStore } from './local-artifact-store.js';
import { S3ArtifactStore } from './s3-artifact-store.js';
import { s3ClientFromEnv } from './s3-client.js';
import { S3Objects } from './s3-objects.js';
import { LocalRunPieceStore, type RunPieceStore, S3RunPieceStore } from './run-pieces.js';

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

/** Where the page files of running runs' checkpoints go: beside the artifacts, local or in the bucket. */
export function openRunPieceStore(
  blobUrl: BlobLocation | undefined,
  piecesRoot: string,
  env: NodeJS.ProcessEnv = process.env,
): RunPieceStore {
  if (blobUrl === undefined) return new LocalRunPieceStore(piecesRoot);
  return new S3RunPieceStore(new S3Objects(s3ClientFromEnv(env), blobUrl.bucket), blobUrl);
}
