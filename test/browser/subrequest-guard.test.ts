/**
 * Sub-requests of rendered pages go through connections guarded on the addresses actually
 * connected to: a host name whose DNS answer changes between the host check and the connection
 * (rebinding) cannot make the browser reach a refused address. Skipped, with the reason, on a
 * machine without Chromium (scripts/install-chromium.sh installs it).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { probeChromium } from '../../src/browser/chromium-launch.js';
import { createRenderer, type RendererHandle } from '../../src/browser/create-renderer.js';
import { loadConfig } from '../../src/config/index.js';
import { AddressPolicy } from '../../src/net/index.js';
import { fakeLookup } from '../net/support/fake-lookup.js';
import { type RecordingServer, startRecordingServer } from '../net/support/recording-server.js';

const IDLE_WAIT_SECONDS = 2;
/** Generous: a loaded 2-core machine may take seconds for a first render in a fresh browser. */
const PAGE_TIMEOUT_SECONDS = 20;
const config = loadConfig(process.env, {
  browserIdleWaitSeconds: IDLE_WAIT_SECONDS,
  browserPageTimeoutSeconds: PAGE_TIMEOUT_SECONDS,
  browserPages: 2,
});
const chromium = await probeChromium(config.chromiumPath);
const skip = chromium.available ? false : `no browser here: ${chromium.reason}`;

/** The title the page's script takes from /data.json (served gzipped when asked for). */
const DATA_TITLE = 'Loaded through the guard';

describe('sub-requests of rendered pages under a restricted address policy', { skip }, () => {
  /** Serves /data.json on 127.0.0.2, the one allowed address. */
  let allowed: Server;
  let allowedOrigin: string;
  const allowedRequests: { path: string; acceptEncoding: string | undefined; cookie: string | undefined }[] =
    [];
  /** Listens on 127.0.0.1, which the policy refuses: it must never see a request. */
  let refused: RecordingServer;
  let browser: RendererHandle;
  const lookup = fakeLookup([['127.0.0.2'], ['127.0.0.1']]);

  before(async () => {
    allowed = createServer((req, res) => {
      const accept = req.headers['accept-encoding'];
      allowedRequests.push({ path: req.url ?? '/', acceptEncoding: accept, cookie: req.headers.cookie });
      if (req.url !== '/data.json') {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      const json = Buffer.from(JSON.stringify({ title: DATA_TITLE }));
      const gzip = typeof accept === 'string' && accept.includes('gzip');
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(gzip && { 'content-encoding': 'gzip' }),
      });
      res.end(gzip ? gzipSync(json) : json);
    });
    await new Promise<void>((resolve, reject) => {
      allowed.once('error', reject);
      allowed.listen(0, '127.0.0.2', () => resolve());
    });
    allowedOrigin = `http://127.0.0.2:${(allowed.address() as AddressInfo).port}`;
    refused = await startRecordingServer('127.0.0.1');
    browser = createRenderer(config, new AddressPolicy(['127.0.0.2/32'], { lookup }));
  });

  after(async () => {
    allowed.closeAllConnections();
    await Promise.all([
      new Promise<void>((resolve) => allowed.close(() => resolve())),
      refused.close(),
      browser.pool.close(),
    ]);
  });

  test('a rebinding host name never reaches the refused address; an allowed resource loads', async () => {
    // `localhost` really resolves to the refused 127.0.0.1: any fetch that resolves it again on
    // its own (rather than connecting to the addresses the policy judged) would reach the server.
    const rebinding = `http://localhost:${refused.port}`;
    const page = `<!doctype html><html><head><meta charset="utf-8"><title>waiting</title></head><body>
<img src="${rebinding}/pixel.gif">
<p id="out">pending</p>
<script>
  fetch('/data.json')
    .then((response) => response.json())
    .then((data) => {
      document.title = data.title;
      document.getElementById('out').textContent = data.title;
    });
</script></body></html>`;
    const session = browser.renderer.openSession({
      userAgent: 'KumoGuardTest/1.0',
      language: null,
      viewport: { width: 800, height: 600 },
      authorizationFor: () => undefined,
    });
    try {
      const rendered = await session.render({
        url: `${allowedOrigin}/`,
        document: {
          status: 200,
          headers: { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'session=abc; Path=/' },
          body: Buffer.from(page),
        },
        screenshot: 'none',
        waitForNetworkIdle: true,
        signal: new AbortController().signal,
      });
      assert.match(rendered.dom, new RegExp(`<title>${DATA_TITLE}</title>`));
      assert.match(rendered.dom, new RegExp(`<p id="out">${DATA_TITLE}</p>`));
      assert.equal(refused.connections, 0, `requests: ${JSON.stringify(refused.requests)}`);
      assert.deepEqual(refused.requests, []);
      assert.ok(lookup.calls.length >= 2, `the host check and the connection each asked: ${lookup.calls}`);
      assert.equal(rendered.blockedRequests.length, 1, JSON.stringify(rendered.blockedRequests));
      assert.ok(rendered.blockedRequests[0]!.startsWith(`${rebinding}/pixel.gif: `));
      assert.match(rendered.blockedRequests[0]!, /127\.0\.0\.1 is a loopback address/);
      const data = allowedRequests.find((request) => request.path === '/data.json');
      assert.ok(data, JSON.stringify(allowedRequests));
      assert.match(data.acceptEncoding ?? '', /gzip/, 'the gzipped body was decoded for the browser');
      assert.equal(data.cookie, 'session=abc', 'the page cookies go with its sub-requests');
    } finally {
      await session.close();
    }
  });
});
