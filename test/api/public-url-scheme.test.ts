/**
 * `KUMO_PUBLIC_URL` is read as a URL parser reads it (docs/operations.md, Console security): a
 * public URL written `HTTPS://` is https, so the session cookies of a `kumo serve` behind a TLS
 * proxy keep `Secure`, and the address the service prints is the lower-case one browsers use.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, test } from 'node:test';
import { startServeProcess } from '../support/serve-process.js';
import { freePort, makeTempDir, TEST_ADMIN_TOKEN } from '../support/service-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

test('a public URL written HTTPS:// gives the session cookies Secure', async () => {
  const dataDir = await makeTempDir('kumo-public-url-');
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const serve = await startServeProcess({
    dataDir,
    port,
    env: {
      KUMO_LOG_LEVEL: 'silent',
      KUMO_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      KUMO_PUBLIC_URL: `HTTPS://127.0.0.1:${port}/`,
    },
    cleanups,
  });
  const publicOrigin = `https://127.0.0.1:${port}`;
  assert.match(serve.output(), new RegExp(`^API docs: ${publicOrigin.replaceAll('.', '\\.')}/docs$`, 'm'));

  // As a browser signs in to the console served through the TLS proxy.
  const signedIn = await fetch(`${serve.url}/admin/v1/operator_session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: publicOrigin },
    body: JSON.stringify({ admin_token: TEST_ADMIN_TOKEN }),
  });
  assert.equal(signedIn.status, 200, await signedIn.clone().text());
  const cookie = signedIn.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^kumo_operator=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);

  const signedOut = await fetch(`${serve.url}/admin/v1/operator_session`, {
    method: 'DELETE',
    headers: {
      cookie: cookie.split(';')[0]!,
      origin: publicOrigin,
      'x-kumo-csrf-token': ((await signedIn.json()) as { csrf_token: string }).csrf_token,
    },
  });
  assert.equal(signedOut.status, 200, await signedOut.clone().text());
  assert.match(signedOut.headers.get('set-cookie') ?? '', /^kumo_operator=; .*Max-Age=0; Secure$/);
  await serve.stop();
});
