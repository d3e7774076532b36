import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

/** The decoders of the encodings a request body may carry (`x-gzip` is gzip, RFC 9110). */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const SUPPORTED = 'gzip, deflate or br';

/**
 * Request bodies may be compressed (docs/reference/conventions.md, Requests): `Content-Encoding`
 * gzip, deflate or br is decoded before the JSON is read, and the body limit applies to the
 * decoded bytes as well as to the bytes sent, so a small compressed body cannot expand into a
 * large one (decoding stops at the limit). Another encoding is a 415 naming it; a body that does
 * not decode as its encoding says is a 400. Before, the header was ignored and a plain body sent
 * as "gzip" was read as if it were not compressed.
 */
export function addContentDecoding(app: FastifyInstance, limitBytes: number): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const header = request.headers['content-encoding'];
    if (header === undefined || !hasBody(request)) return payload;
    const encoding = header.trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return payload;
    const decoder = DECODERS[encoding];
    if (decoder === undefined) {
      const reason = `"${header}" is not supported; send the body uncompressed or as ${SUPPORTED}`;
      throw new ApiError('unsupported_media_type', `header.content-encoding: ${reason}`, [
        { field: 'header.content-encoding', reason },
      ]);
    }
    return decodedBody(payload, decoder(), encoding, limitBytes);
  });
}

/** Whether the request announces a body (a GET naming an encoding but sending nothing is fine). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** What the body parser reads: Fastify compares `receivedEncodedLength` with Content-Length. */
type DecodedBody = Transform & { receivedEncodedLength: number };

function decodedBody(
  payload: Readable,
  decoder: Transform,
  encoding: string,
  limitBytes: number,
): DecodedBody {
  let decodedBytes = 0;
  const output = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      decodedBytes += chunk.length;
      if (decodedBytes <= limitBytes) return done(null, chunk);
      // Stop decoding at once: the rest of a decompression bomb is never expanded.
      decoder.destroy();
      const reason = `is over ${limitBytes} bytes once decompressed (${encoding})`;
      done(new ApiError('payload_too_large', `body: ${reason}`, [{ field: 'body', reason }]));
    },
  }) as DecodedBody;
  output.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => (output.receivedEncodedLength += chunk.length));
  payload.on('error', (error) => output.destroy(error));
  decoder.on('error', (error: Error) => {
    const reason = `could not be decompressed as ${encoding} (${error.message})`;
    output.destroy(new ApiError('invalid_input', `body: ${reason}`, [{ field: 'body', reason }]));
  });
  payload.pipe(decoder).pipe(output);
  return output;
}
