/**
 * The s3rver process of test/support/s3-server.ts: serves `<directory>` with bucket `<bucket>` on a
 * free port of 127.0.0.1, writes `{"port": N}` on one line of stdout, and stops on SIGTERM.
 *
 * It runs in a process of its own because s3rver encrypts ListObjectsV2 continuation tokens with
 * single DES, which OpenSSL 3 keeps in its legacy provider: without `--openssl-legacy-provider`
 * every listing of more than one page fails with 500 InternalError (ERR_OSSL_EVP_UNSUPPORTED).
 */
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
if (directory === undefined || bucket === undefined)
  throw new Error('usage: s3-server-process <directory> <bucket>');
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.once('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
