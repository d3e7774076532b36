/** KUMO_BLOB_URL and KUMO_BLOB_DOWNLOADS (docs/operations.md, Object storage). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { s3ClientConfig } from '../../src/blob/s3.js';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('object storage settings', () => {
  it('keeps artifacts in the data directory and downloads through Kumo by default', () => {
    const config = loadConfig({});
    assert.equal(config.blobUrl, undefined);
    assert.equal(config.blobDownloads, 'kumo');
  });

  it('reads the bucket and the prefix, without slashes around it', () => {
    assert.deepEqual(loadConfig({ KUMO_BLOB_URL: 's3://kumo-artifacts' }).blobUrl, {
      bucket: 'kumo-artifacts',
      prefix: '',
    });
    assert.deepEqual(loadConfig({ KUMO_BLOB_URL: 's3://kumo.artifacts/prod//kumo/' }).blobUrl, {
      bucket: 'kumo.artifacts',
      prefix: 'prod/kumo',
    });
    const presigned = loadConfig({ KUMO_BLOB_URL: 's3://bucket/x', KUMO_BLOB_DOWNLOADS: 'presigned' });
    assert.equal(presigned.blobDownloads, 'presigned');
  });

  const invalid: [Record<string, string>, RegExp][] = [
    [
      { KUMO_BLOB_URL: 'https://s3.example.com/bucket' },
      /^KUMO_BLOB_URL: expected s3:\/\/bucket\/optional\/prefix/,
    ],
    [{ KUMO_BLOB_URL: 'file:///var/lib/kumo' }, /^KUMO_BLOB_URL: expected s3:\/\/bucket/],
    [{ KUMO_BLOB_URL: '/var/lib/kumo' }, /^KUMO_BLOB_URL: expected s3:\/\/bucket/],
    [{ KUMO_BLOB_URL: 's3://' }, /^KUMO_BLOB_URL: the bucket is missing/],
    [{ KUMO_BLOB_URL: 's3:///prefix' }, /^KUMO_BLOB_URL: the bucket is missing/],
    [{ KUMO_BLOB_URL: 's3://Bad_Bucket/x' }, /^KUMO_BLOB_URL: "Bad_Bucket" is not a bucket name/],
    [{ KUMO_BLOB_URL: 's3://bucket/x?versionId=1' }, /^KUMO_BLOB_URL: expected s3:\/\/bucket/],
    [{ KUMO_BLOB_DOWNLOADS: 'direct' }, /^KUMO_BLOB_DOWNLOADS: expected one of kumo, presigned/],
    [
      { KUMO_BLOB_DOWNLOADS: 'presigned' },
      /^KUMO_BLOB_DOWNLOADS: presigned needs object storage \(KUMO_BLOB_URL\)/,
    ],
  ];
  for (const [env, expected] of invalid) {
    it(`refuses ${JSON.stringify(env)} naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && expected.test(error.message),
      );
    });
  }
});

describe('the S3 client of the AWS variables', () => {
  it('addresses buckets by path on an endpoint of its own, in us-east-1 unless told', () => {
    const config = s3ClientConfig({
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
      AWS_ENDPOINT_URL: 'http://other:1',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    assert.equal(config.endpoint, 'http://127.0.0.1:9000');
    assert.equal(config.forcePathStyle, true);
    assert.equal(config.region, 'us-east-1');
    assert.deepEqual(config.credentials, {
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      sessionToken: undefined,
    });
    assert.equal(
      s3ClientConfig({ AWS_ENDPOINT_URL: 'https://minio.internal', AWS_REGION: 'ap-northeast-1' }).region,
      'ap-northeast-1',
    );
  });

  it("leaves AWS itself to the SDK's defaults: virtual-hosted buckets, its region and credential sources", () => {
    assert.deepEqual(s3ClientConfig({ AWS_REGION: 'eu-west-1' }), { region: 'eu-west-1' });
  });

  it('refuses an endpoint that is not an http(s) URL and half a key pair, naming the variables', () => {
    assert.throws(
      () => s3ClientConfig({ AWS_ENDPOINT_URL_S3: 'minio:9000' }),
      /^ConfigError: AWS_ENDPOINT_URL_S3: expected an http\(s\) URL/,
    );
    assert.throws(
      () => s3ClientConfig({ AWS_ACCESS_KEY_ID: 'id' }),
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither/,
    );
  });
});
