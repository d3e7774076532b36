/**
 * Compressed request bodies (docs/reference/conventions.md, Requests): gzip, deflate and br are
 * decoded and read; another Content-Encoding is a 415 naming it; a body that is not what its
 * Content-Encoding says is a 400; the 1 MiB body limit holds for the decoded body too, so a
 * decompression bomb is a 413. Sent over a real socket, with the bytes and headers as given.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { startTestService, TEST_ADMIN_TOKEN, type TestService } from '../support/service-harness.js';

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.close();
});

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are inspected loosely
  json: any;
}

/** POSTs `body` as application/json with `encoding` as Content-Encoding (none when undefined). */
function post(
  path: string,
  body: Buffer,
  encoding: string | undefined,
  headers: Record<string, string> = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const request = httpRequest(
      `${service.url}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(body.length),
          ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: response.statusCode ?? 0, json: JSON.parse(text) });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const createContract = (body: Buffer, encoding: string | undefined) =>
  post('/admin/v1/contracts', body, encoding, ADMIN);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

test('gzip, deflate and br bodies are decoded and read like plain ones', async () => {
  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['GZIP', gzipSync],
    ['identity', (body: Buffer) => body],
  ] as const) {
    const name = `compressed ${encoding}`;
    const answer = await createContract(compress(json({ name })), encoding);
    assert.equal(answer.status, 200, `${encoding}: ${JSON.stringify(answer.json)}`);
    const shown = await service.inject({
      method: 'GET',
      url: `/admin/v1/contracts/${answer.json.contract_id}`,
      headers: ADMIN,
    });
    assert.equal(shown.json.contract.name, name, shown.body);
  }
  // The instant crawl request reads a compressed body too.
  const crawl = await post(
    `${service.tenant.crawlerPath}/request`,
    gzipSync(json({ setting: { seed_urls: ['http://127.0.0.1:9/'] } })),
    'gzip',
    { 'x-mf-apikey': service.apiKey },
  );
  assert.equal(crawl.status, 200, JSON.stringify(crawl.json));
  assert.equal(typeof crawl.json.instant_crawl_request_id, 'number');
});

test('an encoding Kumo does not decode is a 415 naming it', async () => {
  for (const encoding of ['zstd', 'compress', 'gzip, br']) {
    const answer = await createContract(json({ name: 'x' }), encoding);
    assert.equal(answer.status, 415, `${encoding}: ${JSON.stringify(answer.json)}`);
    assert.equal(answer.json.status, 'NG');
    assert.equal(
      answer.json.message,
      `header.content-encoding: "${encoding}" is not supported; send the body uncompressed or as gzip, deflate or br`,
    );
    assert.deepEqual(
      answer.json.errors.map((error: { field: string }) => error.field),
      ['header.content-encoding'],
    );
  }
});

test('a body that is not what its Content-Encoding says is a 400', async () => {
  const plain = json({ name: 'not compressed' });
  const truncated = gzipSync(plain).subarray(0, 12);
  for (const [encoding, body] of [
    ['gzip', plain],
    ['deflate', plain],
    ['br', plain],
    ['gzip', truncated],
    ['deflate', gzipSync(plain)],
  ] as const) {
    const answer = await createContract(body, encoding);
    assert.equal(answer.status, 400, `${encoding}: ${JSON.stringify(answer.json)}`);
    assert.match(
      answer.json.message,
      new RegExp(`^body: could not be decompressed as ${encoding} \\(.+\\)$`),
    );
    assert.equal(answer.json.errors[0].field, 'body');
  }
  const names = (await service.inject({ method: 'GET', url: '/admin/v1/contracts', headers: ADMIN })).json;
  assert.ok(!JSON.stringify(names).includes('not compressed'), 'nothing was created');
});

test('the body limit holds for the decoded body: a decompression bomb is a 413', async () => {
  // 8 MiB of spaces inside a valid JSON object compress to a few KB.
  const bomb = gzipSync(
    Buffer.concat([Buffer.from('{"name": "bomb"'), Buffer.alloc(8 * 1024 * 1024, ' '), Buffer.from('}')]),
  );
  assert.ok(bomb.length < 64 * 1024);
  const answer = await createContract(bomb, 'gzip');
  assert.equal(answer.status, 413, JSON.stringify(answer.json));
  assert.equal(answer.json.message, 'body: is over 1048576 bytes once decompressed (gzip)');

  // Just under the limit once decoded is read.
  const padded = Buffer.concat([
    Buffer.from('{"name": "near the limit"'),
    Buffer.alloc(1024 * 1024 - 100, ' '),
    Buffer.from('}'),
  ]);
  const near = await createContract(gzipSync(padded), 'gzip');
  assert.equal(near.status, 200, JSON.stringify(near.json));
});
