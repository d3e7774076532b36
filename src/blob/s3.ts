/**
 * The S3-compatible storage, loaded only when a bucket is configured: its client package takes a
 * noticeable time and memory to load, which a service on the local disk never pays.
 * (docs/design/layers.md, Surfaces)
 */
export { s3ClientConfig, s3ClientFromEnv } from './s3-client.js';
export { S3FileGroups } from './s3-file-groups.js';
export { S3Objects } from './s3-objects.js';
