/**
 * An S3-compatible server for tests (s3rver) on 127.0.0.1, a free port and a temporary folder,
 * with one bucket; the AWS_* variables the artifact store's client reads point at it. s3rver runs
 * in a child process (see s3-server-process.ts for why).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { S3Client } from '@aws-sdk/client-s3';
import { s3ClientFromEnv } from '../../src/blob/s3.js';
import { makeTempDir } from './service-harness.js';

/** s3rver checks signatures against this fixed key pair. */
const ACCESS_KEY = 'S3RVER';
const SERVER_SCRIPT = new URL('./s3-server-process.js', import.meta.url);

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** AWS_ENDPOINT_URL_S3, AWS_REGION and the credentials, as the service reads them. */
  env: Record<string, string>;
  /** A client of the server, for checking what the service stored. */
  client: S3Client;
  stop(): Promise<void>;
}

export async function startS3Server(bucket = 'kumo-test'): Promise<TestS3Server> {
  const directory = await makeTempDir('kumo-s3-');
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', SERVER_SCRIPT.pathname, directory, bucket],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let port: number;
  try {
    port = await portOf(child);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  const env = {
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
  };
  const client = s3ClientFromEnv(env);
  return {
    endpoint,
    bucket,
    env,
    client,
    async stop() {
      client.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The port the server process reports on its first line, or its failure to start. */
async function portOf(child: ChildProcess): Promise<number> {
  const lines = createInterface({ input: child.stdout! });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the S3 test server exited with ${String(code)} before listening`);
  });
  const first = (async () => {
    for await (const line of lines) return (JSON.parse(line) as { port: number }).port;
    throw new Error('the S3 test server closed its output before listening');
  })();
  try {
    return await Promise.race([first, exited]);
  } finally {
    exited.catch(() => undefined);
    lines.close();
  }
}
