/**
 * What the tests of published search generations run on: a PostgreSQL server and an S3 server,
 * started before a file's tests and stopped after them, a scratch folder, and what the tests
 * opened, closed first in the reverse order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { startPostgresServer, type PostgresServer } from './postgres-server.js';
import { startS3Server, type TestS3Server } from './s3-server.js';

export interface GenerationBackends {
  folder: string;
  /** Set once the file's tests start. */
  postgres: PostgresServer;
  s3: TestS3Server;
  closers: (() => unknown)[];
}

export function generationBackends(folderPrefix: string): GenerationBackends {
  const backends = {
    folder: mkdtempSync(path.join(os.tmpdir(), folderPrefix)),
    closers: [] as (() => unknown)[],
  } as GenerationBackends;
  before(async () => {
    backends.postgres = await startPostgresServer();
    backends.s3 = await startS3Server();
  });
  after(async () => {
    for (const close of backends.closers.reverse()) await close();
    await backends.s3.stop();
    await backends.postgres.stop();
    rmSync(backends.folder, { recursive: true, force: true });
  });
  return backends;
}
