import type { FastifyReply } from 'fastify';
import type { ArtifactStore } from '../../blob/index.js';
import type { BlobDownloads } from '../../config/index.js';
import type { ArtifactFileName } from '../../domain/index.js';
import { ApiError } from '../api-error.js';
import { SIGNED_URL_TTL_SECONDS } from '../download-signer.js';

/** Where the downloads are read and how they reach clients (KUMO_BLOB_DOWNLOADS). */
export interface ArtifactDownloads {
  store: ArtifactStore;
  mode: BlobDownloads;
}

/**
 * With KUMO_BLOB_DOWNLOADS=presigned, the object store's own URL of the file, usable for as long as
 * Kumo's signed links (docs/reference/downloads.md); undefined when downloads go through Kumo.
 */
export async function presignedLocation(
  downloads: ArtifactDownloads,
  runId: number,
  file: ArtifactFileName,
  downloadName: string,
): Promise<string | undefined> {
  const { store, mode } = downloads;
  if (mode !== 'presigned' || store.presignedUrl === undefined) return undefined;
  const url = await store.presignedUrl(runId, file, downloadName, SIGNED_URL_TTL_SECONDS);
  if (url === undefined) throw new ApiError('not_found', `${file} is missing from the artifact store`);
  return url;
}

/**
 * Answers a finished run's artifact file as a gzip attachment named `downloadName`: streamed from
 * the store, or, with presigned downloads, a 302 to the object store; 404 when it is missing.
 */
export async function sendArtifact(
  reply: FastifyReply,
  downloads: ArtifactDownloads,
  runId: number,
  file: ArtifactFileName,
  downloadName: string,
): Promise<FastifyReply> {
  const location = await presignedLocation(downloads, runId, file, downloadName);
  if (location !== undefined)
    return reply.header('cache-control', 'private, no-store').redirect(location, 302);
  return streamArtifact(reply, downloads.store, runId, file, downloadName);
}

/** Streams the file from the store (local or object storage) through this process. */
export async function streamArtifact(
  reply: FastifyReply,
  artifacts: ArtifactStore,
  runId: number,
  file: ArtifactFileName,
  downloadName: string,
): Promise<FastifyReply> {
  const opened = await artifacts.open(runId, file);
  if (!opened) throw new ApiError('not_found', `${file} is missing from the artifact store`);
  return reply
    .header('content-type', 'application/gzip')
    .header('content-length', String(opened.bytes))
    .header('content-disposition', `attachment; filename="${downloadName}"`)
    .header('cache-control', 'private, no-store')
    .send(opened.stream);
}
