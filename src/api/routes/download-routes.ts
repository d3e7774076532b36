import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ARTIFACT_FILE_NAMES, type ArtifactFileName } from '../../domain/index.js';
import { type DownloadLookup, type InstantCrawlService, instantDownloadPath } from '../../usecases/index.js';
import type { ApiKeyStore } from '../../store/index.js';
import type { Clock } from '../../util/index.js';
import { ApiError } from '../api-error.js';
import type { DownloadSigner } from '../download-signer.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { ApiKeyHeader, IdParam, NgBodySchema } from '../schemas/common-schemas.js';
import { createTenantAuth, tenantOf } from '../tenant-auth.js';
import { type ArtifactDownloads, presignedLocation, streamArtifact } from './send-artifact.js';

export interface DownloadRoutesOptions {
  service: InstantCrawlService;
  apiKeys: ApiKeyStore;
  downloads: ArtifactDownloads;
  signer: DownloadSigner;
  clock: Clock;
  publicUrl: string;
  methods: MethodRegistry;
}

const DOWNLOAD_PATH =
  '/instant_crawler/contracts/:contract_id/servicegroups/:servicegroup_id/instant_crawl_requests/:instant_crawl_request_id/:file';

const DownloadSchema = {
  summary: 'Download an artifact of a finished instant crawl',
  description:
    'With a valid x-mf-apikey: 302 to a signed URL usable for 30 seconds. The signed URL (expires, signature) serves ' +
    'the file without a key. With KUMO_BLOB_DOWNLOADS=presigned the 302 goes to the object store instead, for as ' +
    'long. Files: url_list.csv.gz, crawl_objects.tar.gz, link_list.csv.gz.',
  tags: ['downloads'],
  headers: ApiKeyHeader,
  params: Type.Object({
    contract_id: IdParam('contract id'),
    servicegroup_id: IdParam('service group id'),
    instant_crawl_request_id: IdParam('request id'),
    file: Type.Union(ARTIFACT_FILE_NAMES.map((name) => Type.Literal(name))),
  }),
  querystring: Type.Object({
    expires: Type.Optional(Type.String({ maxLength: 20 })),
    signature: Type.Optional(Type.String({ maxLength: 128 })),
  }),
  response: {
    200: Type.Unsafe<NodeJS.ReadableStream>({
      type: 'string',
      format: 'binary',
      description: 'the gzip file',
    }),
    302: Type.Null(),
    401: NgBodySchema,
    403: NgBodySchema,
    404: NgBodySchema,
    410: NgBodySchema,
  },
};

/** Instant crawl downloads (docs/reference/downloads.md, Instant crawl downloads). */
export const downloadRoutes: FastifyPluginAsyncTypebox<DownloadRoutesOptions> = async (app, options) => {
  const { service, downloads, signer, clock } = options;
  const authenticate = createTenantAuth(options.apiKeys);
  options.methods.record(DOWNLOAD_PATH, 'GET');

  app.get(DOWNLOAD_PATH, { schema: DownloadSchema }, async (request, reply) => {
    const { contract_id, servicegroup_id, instant_crawl_request_id } = request.params;
    const file = request.params.file as ArtifactFileName;
    const tenant = { contractId: contract_id, servicegroupId: servicegroup_id };
    const path = instantDownloadPath({ ...tenant, requestId: instant_crawl_request_id }, file);
    const nowSeconds = clock.nowMicros() / 1_000_000;
    const { expires, signature } = request.query;

    if (expires === undefined && signature === undefined) {
      await authenticate(request);
      const keyed = readyDownload(
        await service.lookupDownload(tenantOf(request), instant_crawl_request_id, file),
      );
      const presigned = await presignedLocation(
        downloads,
        keyed.run.id,
        file,
        downloadNameOf(instant_crawl_request_id, file),
      );
      return reply.redirect(presigned ?? `${options.publicUrl}${path}?${signer.sign(path, nowSeconds)}`, 302);
    }

    if (!signer.verify(path, expires, signature, nowSeconds)) throw new ApiError('invalid_signature');
    const ready = readyDownload(await service.lookupDownload(tenant, instant_crawl_request_id, file));
    // Kumo's own signed URL streams the file whatever the download mode: a link handed out just
    // before a change of mode still works.
    return streamArtifact(
      reply,
      downloads.store,
      ready.run.id,
      file,
      downloadNameOf(instant_crawl_request_id, file),
    );
  });
};

/** The file name a client saves an instant crawl's file under. */
function downloadNameOf(requestId: number, file: ArtifactFileName): string {
  return `${requestId}_${file}`;
}

/** A lookup that found the file, or the 404 / 410 it amounts to. */
function readyDownload(lookup: DownloadLookup): Extract<DownloadLookup, { kind: 'ready' }> {
  if (lookup.kind === 'not_found') throw new ApiError('not_found', lookup.reason);
  if (lookup.kind === 'gone') throw new ApiError('gone');
  return lookup;
}
