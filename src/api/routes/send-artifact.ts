import type { FastifyReply } from 'fastify';
import type { ArtifactFileName } from '../../domain/artifact-files.js';
import type { LocalArtifactStore } from '../../blob/local-artifact-store.js';
import { ApiError } from '../api-error.js';

/** Streams a finished run's artifact file as a gzip attachment named `downloadName`; 404 when it is missing. */
export async function sendArtifact(
  reply: FastifyReply,
  artifacts: LocalArtifactStore,
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
