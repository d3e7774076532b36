/**
 * Where artifacts and search generations are kept: the stores, opened on the local disk or a
 * bucket by configuration. The S3 client itself loads only through ./s3.ts.
 * (docs/design/layers.md, Surfaces)
 */
export type { ArtifactStore } from './artifact-store.js';
export { type FileGroupStore, type GroupFile, LocalFileGroups } from './file-groups.js';
export { LocalArtifactStore } from './local-artifact-store.js';
export { openArtifactStore, openFileGroups } from './open-artifact-store.js';
export { publishFailureReason } from './publish-failure.js';
