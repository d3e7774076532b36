/**
 * The S3 artifact store against an S3-compatible server (s3rver on 127.0.0.1): publish (multipart
 * above one part), open, ranges, the report cache, local copies, sizes, presigned URLs and removal
 * over more than one listing page (docs/design/storage.md, Artifact storage).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Agent, fetch as undiciFetch } from 'undici';
import { publishFailureReason } from '../../src/blob/publish-failure.js';
import { S3ArtifactStore, UPLOAD_PART_BYTES } from '../../src/blob/s3-artifact-store.js';
import { s3ClientFromEnv } from '../../src/blob/s3-client.js';
import { S3Objects } from '../../src/blob/s3-objects.js';
import { ArtifactFile } from '../../src/domain/index.js';
import { makeTempDir } from '../support/service-harness.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';

const REPORT = 'run-report.db';
const RUN = 7;

let s3: TestS3Server;
let dataDir: string;
/** The names of the commands each store's client sent, in order. */
const sent: string[] = [];
let store: S3ArtifactStore;
/** More than one part, and not a whole number of them. */
const bundle = randomBytes(2 * UPLOAD_PART_BYTES + 12_345);
const urlList = randomBytes(3_000);
const report = randomBytes(40_000);

/** A store on the test server whose client records the commands it sends. */
function storeOf(cacheName: string, bucket = s3.bucket): S3ArtifactStore {
  const client = s3ClientFromEnv(s3.env);
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize' },
  );
  return new S3ArtifactStore({
    objects: new S3Objects(client, bucket),
    location: { bucket, prefix: 'kumo/test' },
    stagingRoot: path.join(dataDir, 'artifacts'),
    cacheRoot: path.join(dataDir, cacheName),
  });
}

async function stage(runId: number, files: Record<string, Buffer>): Promise<void> {
  const folder = store.folderFor(runId);
  await mkdir(folder, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(folder, name), bytes);
}

async function keysUnder(prefix: string): Promise<string[]> {
  const listing = await new S3Objects(s3.client, s3.bucket).list(prefix);
  return listing.map((object) => object.key).sort();
}

function sentSince(mark: number): string[] {
  return sent.slice(mark);
}

before(async () => {
  s3 = await startS3Server();
  dataDir = await makeTempDir('kumo-s3-store-');
  store = storeOf('cache');
  await stage(RUN, { [ArtifactFile.objects]: bundle, [ArtifactFile.urlList]: urlList, [REPORT]: report });
  await store.publish(RUN);
});

after(async () => {
  await s3?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe('publish', () => {
  test('uploads every staged file under <prefix>/runs/<run id>/ and removes the staging folder', async () => {
    assert.deepEqual(await keysUnder('kumo/test/'), [
      `kumo/test/runs/${RUN}/${ArtifactFile.objects}`,
      `kumo/test/runs/${RUN}/${REPORT}`,
      `kumo/test/runs/${RUN}/${ArtifactFile.urlList}`,
    ]);
    assert.equal(existsSync(store.folderFor(RUN)), false);
  });

  test('a file larger than one part goes up in parts, and comes back byte for byte', async () => {
    // Three parts of the bundle; the small files are single PUTs.
    assert.equal(sent.filter((name) => name === 'CreateMultipartUploadCommand').length, 1);
    assert.equal(sent.filter((name) => name === 'UploadPartCommand').length, 3);
    assert.equal(sent.filter((name) => name === 'CompleteMultipartUploadCommand').length, 1);
    assert.equal(sent.filter((name) => name === 'PutObjectCommand').length, 2);
    const opened = await store.open(RUN, ArtifactFile.objects);
    assert.ok(opened);
    assert.equal(opened.bytes, bundle.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    assert.ok(Buffer.concat(chunks).equals(bundle));
  });

  test('a run that staged nothing stores nothing', async () => {
    await store.publish(999);
    assert.deepEqual(await keysUnder('kumo/test/runs/999/'), []);
  });

  test('an upload the store refuses throws, with a reason that names no endpoint or bucket', async () => {
    const missing = storeOf('cache-missing', 'no-such-bucket');
    await stage(8, { [ArtifactFile.urlList]: urlList });
    const error = await missing.publish(8).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    assert.ok(error, 'publish to a missing bucket must fail');
    assert.equal(publishFailureReason(error), 'the object store answered 404 NoSuchBucket');
    await missing.remove(8).catch(() => undefined);
    assert.equal(existsSync(store.folderFor(8)), false);
  });
});

describe('reading', () => {
  test('open answers undefined for a file the run does not have', async () => {
    assert.equal(await store.open(RUN, ArtifactFile.linkList), undefined);
    assert.equal(await store.open(12345, ArtifactFile.urlList), undefined);
  });

  test('readRange reads a part of a file; beyond its end or of a missing file, undefined', async () => {
    const offset = UPLOAD_PART_BYTES - 100;
    const part = await store.readRange(RUN, ArtifactFile.objects, offset, 5_000);
    assert.ok(part?.equals(bundle.subarray(offset, offset + 5_000)));
    assert.equal(await store.readRange(RUN, ArtifactFile.objects, bundle.length - 10, 20), undefined);
    assert.equal(await store.readRange(RUN, ArtifactFile.objects, bundle.length + 10, 20), undefined);
    assert.equal(await store.readRange(RUN, ArtifactFile.linkList, 0, 10), undefined);
  });

  test('the report is downloaded once into the cache folder and read from there after', async () => {
    const reader = storeOf('cache-reader');
    const mark = sent.length;
    const [first, second] = await Promise.all([
      reader.reportFile(RUN, REPORT),
      reader.reportFile(RUN, REPORT),
    ]);
    assert.equal(first, path.join(dataDir, 'cache-reader', String(RUN), REPORT));
    assert.equal(second, first);
    assert.ok((await readFile(first!)).equals(report));
    assert.deepEqual(sentSince(mark), ['GetObjectCommand']);
    const again = await reader.reportFile(RUN, REPORT);
    assert.equal(again, first);
    assert.deepEqual(sentSince(mark), ['GetObjectCommand']);
    assert.equal(await reader.reportFile(12345, REPORT), undefined);
  });

  test('the publishing process keeps the report it packaged in its cache', async () => {
    const mark = sent.length;
    const file = await store.reportFile(RUN, REPORT);
    assert.equal(file, path.join(dataDir, 'cache', String(RUN), REPORT));
    assert.ok((await readFile(file!)).equals(report));
    assert.deepEqual(sentSince(mark), []);
  });

  test('withLocalFile gives a temporary copy, removed afterwards; a missing file is not used', async () => {
    let copy = '';
    const same = await store.withLocalFile(RUN, ArtifactFile.objects, async (file) => {
      copy = file;
      return (await readFile(file)).equals(bundle);
    });
    assert.equal(same, true);
    assert.equal(existsSync(copy), false);
    let called = false;
    const missing = await store.withLocalFile(RUN, ArtifactFile.linkList, async () => {
      called = true;
    });
    assert.equal(missing, undefined);
    assert.equal(called, false);
  });

  test('storedBytes adds up the objects of the run', async () => {
    assert.equal(await store.storedBytes(RUN), bundle.length + urlList.length + report.length);
    assert.equal(await store.storedBytes(12345), 0);
  });

  test('a presigned URL serves the file as an attachment with the name given', async () => {
    // A missing file gets no link (Kumo answers its own 404 instead of the object store's).
    assert.equal(await store.presignedUrl(12345, ArtifactFile.urlList, 'missing.csv.gz', 30), undefined);
    const url = (await store.presignedUrl(RUN, ArtifactFile.urlList, `${RUN}_${ArtifactFile.urlList}`, 30))!;
    assert.ok(url.startsWith(`${s3.endpoint}/${s3.bucket}/kumo/test/runs/${RUN}/`), url);
    const agent = new Agent();
    try {
      const answer = await undiciFetch(url, { dispatcher: agent });
      assert.equal(answer.status, 200);
      assert.equal(
        answer.headers.get('content-disposition'),
        `attachment; filename="${RUN}_${ArtifactFile.urlList}"`,
      );
      assert.ok(Buffer.from(await answer.arrayBuffer()).equals(urlList));
    } finally {
      await agent.close();
    }
  });
});

describe('remove', () => {
  test('deletes every object of the run over more than one listing page, and the local copies', async () => {
    const runId = 21;
    const keys = Array.from({ length: 1_010 }, (_, index) => `kumo/test/runs/${runId}/part-${index}`);
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(
        keys
          .slice(start, start + 50)
          .map((Key) => s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key, Body: 'x' }))),
      );
    }
    await stage(runId, { [REPORT]: report });
    assert.equal((await keysUnder(`kumo/test/runs/${runId}/`)).length, 1_010);
    const mark = sent.length;
    await store.remove(runId);
    assert.deepEqual(await keysUnder(`kumo/test/runs/${runId}/`), []);
    assert.equal(sentSince(mark).filter((name) => name === 'ListObjectsV2Command').length, 2);
    assert.equal(sentSince(mark).filter((name) => name === 'DeleteObjectsCommand').length, 2);
    assert.equal(existsSync(store.folderFor(runId)), false);
    // Another run's objects stay.
    assert.equal((await keysUnder(`kumo/test/runs/${RUN}/`)).length, 3);
  });

  test("removes a published run's objects and its cached report", async () => {
    await store.remove(RUN);
    assert.deepEqual(await keysUnder(`kumo/test/runs/${RUN}/`), []);
    assert.equal(existsSync(path.join(dataDir, 'cache', String(RUN))), false);
    assert.equal(await store.open(RUN, ArtifactFile.urlList), undefined);
  });
});
