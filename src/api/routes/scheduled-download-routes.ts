import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ARTIFACT_FILE_NAMES, isArtifactFileName, allowedValuesReason } from '../../domain/index.js';
import type { ScheduledCrawlService } from '../../usecases/index.js';
import { ApiError } from '../api-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { NgBodySchema } from '../schemas/common-schemas.js';
import { type ArtifactDownloads, sendArtifact } from './send-artifact.js';

export interface ScheduledDownloadRoutesOptions {
  service: ScheduledCrawlService;
  downloads: ArtifactDownloads;
  methods: MethodRegistry;
}

const DOWNLOAD_PATH = '/crawler/:generated_string/:file';

const DownloadSchema = {
  summary: 'Download an artifact of a scheduled run',
  description:
    'No key: the generated string (192 random bits) is the credential. Its path is the crawl_url_list_path of ' +
    'the scheduled history with the file name replaced. Unknown strings and file names answer 404 (an unknown ' +
    'file name is named in errors with the valid ones), files removed by retention 410. With ' +
    'KUMO_BLOB_DOWNLOADS=presigned: 302 to the object store, usable for 30 seconds.',
  tags: ['downloads'],
  // Any other string or file name is simply unknown: 404, as for a string never generated; the
  // route names the valid file names (which say nothing about the string, the credential).
  params: Type.Object({
    generated_string: Type.String({ maxLength: 256, description: 'generated with the run' }),
    file: Type.String({ maxLength: 256, description: ARTIFACT_FILE_NAMES.join(', ') }),
  }),
  response: {
    200: Type.Unsafe<NodeJS.ReadableStream>({
      type: 'string',
      format: 'binary',
      description: 'the gzip file',
    }),
    302: Type.Null(),
    404: NgBodySchema,
    410: NgBodySchema,
  },
};

/**
 * Scheduled run downloads (docs/reference/downloads.md, Scheduled run downloads): served directly,
 * no redirect, unless downloads are presigned object store URLs.
 */
export const scheduledDownloadRoutes: FastifyPluginAsyncTypebox<ScheduledDownloadRoutesOptions> = async (
  app,
  options,
) => {
  options.methods.record(DOWNLOAD_PATH, 'GET');
  app.get(DOWNLOAD_PATH, { schema: DownloadSchema }, async (request, reply) => {
    const { generated_string, file: requested } = request.params;
    if (!isArtifactFileName(requested)) {
      const reason = allowedValuesReason(ARTIFACT_FILE_NAMES);
      throw new ApiError('not_found', `path.file: ${reason}`, [{ field: 'path.file', reason }]);
    }
    const lookup = await options.service.lookupDownload(generated_string, requested);
    if (lookup.kind === 'not_found') throw new ApiError('not_found', lookup.reason);
    if (lookup.kind === 'gone') throw new ApiError('gone');
    const { run, file } = lookup;
    return sendArtifact(reply, options.downloads, run.id, file, `${run.id}_${file}`);
  });
};
