/**
 * A rendered page cannot reach an address the address policy refuses by any path beside the
 * request interceptor: WebRTC (STUN over UDP, TURN over TCP), WebSockets, preconnect and DNS
 * prefetch hints, beacons, event streams and prefetch links, from the main frame, an iframe, a
 * freshly made blank iframe and workers (served and blob). The crawl engine runs with a real
 * Chromium against a site on 127.0.0.2, the only address allowed; listeners on 127.0.0.1 must
 * receive nothing, refused WebSockets are listed in blocked_requests, and what the page could
 * observe (written into its DOM) does not tell an open port from a closed one. Skipped, with the
 * reason, on a machine without Chromium (scripts/install-chromium.sh installs it).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { probeChromium } from '../../src/browser/chromium-launch.js';
import { createRenderer, type RendererHandle } from '../../src/browser/create-renderer.js';
import { loadConfig } from '../../src/config/index.js';
import { createUndiciFetcher, type HttpFetcher } from '../../src/crawler/engine.js';
import { resolveCrawlSettings } from '../../src/domain/index.js';
import { AddressPolicy } from '../../src/net/index.js';
import { systemClock } from '../../src/util/index.js';
import { executeCrawl } from '../../src/worker/execute-crawl.js';
import { readCsvGz, readTarGz, recordsOf } from '../support/artifact-readers.js';

const USER_AGENT = 'KumoEscapeTest/1.0';
const IDLE_WAIT_SECONDS = 3;
/** Generous: a loaded 2-core machine may take seconds for a first render in a fresh browser. */
const PAGE_TIMEOUT_SECONDS = 30;
/** Time left after the render for late packets (ICE retries, reconnects) to arrive. */
const AFTER_RENDER_MS = 2500;
const config = loadConfig(process.env, {
  browserIdleWaitSeconds: IDLE_WAIT_SECONDS,
  browserPageTimeoutSeconds: PAGE_TIMEOUT_SECONDS,
  browserPages: 2,
});
const chromium = await probeChromium(config.chromiumPath);
const skip = chromium.available ? false : `no browser here: ${chromium.reason}`;

interface Ports {
  /** TCP listener on 127.0.0.1 (TURN server and WebSocket target). */
  open: number;
  /** A 127.0.0.1 port nothing listens on. */
  closed: number;
  /** UDP socket on 127.0.0.1 (STUN server). */
  udp: number;
}

/**
 * What each realm tries, reporting through `note(key, value)`: WebRTC with a STUN and a TURN
 * server on the open and the closed port, and a WebSocket to each.
 */
function attacks(ports: Ports): string {
  return `
function tryRtc(where, scope) {
  const Peer = scope.RTCPeerConnection || scope.webkitRTCPeerConnection;
  if (typeof Peer !== 'function') return note(where + ' rtc', 'absent');
  note(where + ' rtc', 'present');
  for (const [label, port] of [['open', ${ports.open}], ['closed', ${ports.closed}]]) {
    const started = Date.now();
    try {
      const peer = new Peer({ iceServers: [
        { urls: 'stun:127.0.0.1:${ports.udp}' },
        { urls: 'turn:127.0.0.1:' + port + '?transport=tcp', username: 'u', credential: 'p' },
        { urls: 'turn:127.0.0.1:${ports.udp}?transport=udp', username: 'u', credential: 'p' },
      ] });
      peer.onicecandidateerror = (event) =>
        note(where + ' turn ' + label, event.errorCode + ' after ' + (Date.now() - started) + ' ms');
      peer.createDataChannel('probe');
      peer.createOffer().then((offer) => peer.setLocalDescription(offer)).catch(() => {});
    } catch (error) {
      note(where + ' rtc ' + label, 'threw ' + error.name);
    }
  }
}
function tryWebSockets(where, Socket) {
  for (const [label, port] of [['open', ${ports.open}], ['closed', ${ports.closed}]]) {
    try {
      const socket = new Socket('ws://127.0.0.1:' + port + '/' + where + '-' + label);
      socket.onopen = () => note(where + ' ws ' + label, 'open');
      socket.onclose = (event) => note(where + ' ws ' + label, 'closed ' + event.code);
    } catch (error) {
      note(where + ' ws ' + label, 'threw ' + error.name);
    }
  }
}
`;
}

function workerScript(ports: Ports): string {
  return `${attacks(ports)}
const where = self.name;
function note(key, value) { postMessage([key, value]); }
note(where + ' rtc', typeof RTCPeerConnection === 'function' ? 'present' : 'absent');
tryWebSockets(where, WebSocket);
fetch('http://127.0.0.1:${ports.open}/' + where + '-fetch').catch(() => {});
`;
}

function attackPage(ports: Ports): string {
  const open = `127.0.0.1:${ports.open}`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>escape</title>
<link rel="dns-prefetch" href="//${open}">
<link rel="preconnect" href="http://${open}">
<link rel="prefetch" href="http://${open}/prefetched">
</head><body><pre id="report">{}</pre>
<script>
const report = {};
function note(key, value) {
  report[key] = value;
  document.getElementById('report').textContent = JSON.stringify(report, Object.keys(report).sort());
}
${attacks(ports)}
tryRtc('main', window);
tryWebSockets('main', WebSocket);
const blank = document.createElement('iframe');
document.body.appendChild(blank);
tryRtc('blank', blank.contentWindow);
const frame = document.createElement('iframe');
frame.src = '/frame';
document.body.appendChild(frame);
for (const [name, source] of [
  ['worker', '/worker.js'],
  ['blob', URL.createObjectURL(new Blob([${JSON.stringify(workerScript(ports))}], { type: 'text/javascript' }))],
]) {
  const worker = new Worker(source, { name });
  worker.onmessage = (event) => note(event.data[0], event.data[1]);
}
navigator.sendBeacon('http://${open}/beacon', 'probe');
new EventSource('http://${open}/events');
</script></body></html>`;
}

function framePage(ports: Ports): string {
  return `<!doctype html><html><head><meta charset="utf-8"></head><body><script>
const note = (key, value) => parent.note(key, value);
${attacks(ports)}
tryRtc('frame', window);
tryWebSockets('frame', WebSocket);
</script></body></html>`;
}

/** Sent by the allowed WebSocket endpoint; shorter than 126 bytes (one-byte frame length). */
const CHAT_MESSAGE = 'hello over an allowed WebSocket';
const CHAT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>chat</title></head><body>
<p id="chat">waiting</p><script>
const socket = new WebSocket('ws://' + location.host + '/live');
socket.onmessage = (event) => { document.getElementById('chat').textContent = event.data; };
</script></body></html>`;

describe('a rendered page cannot reach refused addresses beside the request interceptor', { skip }, () => {
  let site: Server;
  let siteOrigin: string;
  let listener: TcpServer;
  let udp: dgram.Socket;
  let ports: Ports;
  const received: string[] = [];
  const upgraded: Duplex[] = [];
  let browser: RendererHandle;
  let fetcher: HttpFetcher;
  const folders: string[] = [];

  before(async () => {
    listener = createTcpServer((socket) => {
      received.push(`tcp connection from ${socket.remoteAddress}`);
      socket.on('data', (data) => received.push(`tcp ${data.length} bytes`));
      socket.on('error', () => undefined);
      upgraded.push(socket);
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    udp = dgram.createSocket('udp4');
    udp.on('message', (message) => received.push(`udp ${message.length} bytes`));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const closing = createTcpServer();
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const closed = (closing.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closing.close(() => resolve()));
    ports = { open: (listener.address() as AddressInfo).port, closed, udp: udp.address().port };

    site = createHttpServer((req, res) => {
      const pages: Record<string, [string, string]> = {
        '/': ['text/html; charset=utf-8', attackPage(ports)],
        '/frame': ['text/html; charset=utf-8', framePage(ports)],
        '/worker.js': ['text/javascript', workerScript(ports)],
        '/chat': ['text/html; charset=utf-8', CHAT_PAGE],
      };
      const page = pages[req.url ?? '/'];
      res.writeHead(page === undefined ? 404 : 200, { 'content-type': page?.[0] ?? 'text/plain' });
      res.end(page?.[1] ?? 'not found');
    });
    // A WebSocket endpoint on the allowed address: answers the handshake, then sends one message.
    site.on('upgrade', (req, socket) => {
      const accept = createHash('sha1')
        .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
      );
      socket.write(Buffer.concat([Buffer.from([0x81, CHAT_MESSAGE.length]), Buffer.from(CHAT_MESSAGE)]));
      socket.on('error', () => undefined);
      upgraded.push(socket);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.2', resolve));
    siteOrigin = `http://127.0.0.2:${(site.address() as AddressInfo).port}`;

    const policy = new AddressPolicy(['127.0.0.2/32']);
    browser = createRenderer(config, policy);
    fetcher = createUndiciFetcher({ addresses: policy });
  });

  after(async () => {
    site.closeAllConnections();
    for (const socket of upgraded) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => site.close(() => resolve())),
      new Promise<void>((resolve) => listener.close(() => resolve())),
      new Promise<void>((resolve) => udp.close(() => resolve())),
      browser.pool.close(),
      fetcher.close(),
    ]);
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  /** Crawls `seed` alone with wait_type 2; its rows and the files of its bundle folder. */
  async function crawl(
    seed: string,
  ): Promise<{ rows: Record<string, string>[]; fileNamed(name: string): string }> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-escape-'));
    folders.push(folder);
    const settings = resolveCrawlSettings({
      seed_urls: [seed],
      user_agent: USER_AGENT,
      wait_type: 2,
      depth_limit: 0,
    });
    await executeCrawl(
      settings,
      { workFolder: path.join(folder, 'work'), artifactFolder: path.join(folder, 'out') },
      {
        fetcher,
        clock: systemClock,
        limits: {
          timeoutMs: 5000,
          maxRedirects: 5,
          maxBodyBytes: 1 << 20,
          retryCount: 0,
          retryBaseDelayMs: 10,
        },
        defaultUserAgent: USER_AGENT,
        timezone: 'UTC',
        renderer: browser.renderer,
      },
      { cancelSignal: new AbortController().signal, deadlineMicros: systemClock.nowMicros() + 120e6 },
      new Set(['completed', 'limit_reached']),
    );
    const rows = recordsOf(readCsvGz(path.join(folder, 'out', 'url_list.csv.gz')));
    const entries = await readTarGz(path.join(folder, 'out', 'crawl_objects.tar.gz'));
    const fileNamed = (name: string): string => {
      const found = [...entries].find(([entry]) => entry.endsWith(`/${name}`));
      assert.ok(found, `no ${name} among ${[...entries.keys()].join(', ')}`);
      return found[1].toString('utf8');
    };
    return { rows, fileNamed };
  }

  test('no WebRTC, WebSocket, hint or beacon reaches 127.0.0.1; refused WebSockets are listed', async () => {
    const seed = `${siteOrigin}/`;
    const { rows, fileNamed } = await crawl(seed);
    await new Promise((resolve) => setTimeout(resolve, AFTER_RENDER_MS));

    assert.deepEqual(
      rows.map((row) => [row.crawl_url, row.is_crawl_ok]),
      [[seed, 'true']],
    );
    const dom = fileNamed('dom.html');
    const meta = JSON.parse(fileNamed('meta.json')) as { rendered: { blocked_requests: string[] } };

    assert.deepEqual(received, [], 'nothing reached the TCP listener or the UDP socket on 127.0.0.1');

    const reportText = /<pre id="report">([^<]*)<\/pre>/.exec(dom)?.[1];
    assert.ok(reportText !== undefined, dom);
    const report = JSON.parse(reportText.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as Record<
      string,
      string
    >;
    for (const where of ['main', 'blank', 'frame', 'worker', 'blob']) {
      assert.equal(report[`${where} rtc`], 'absent', `WebRTC in ${where}: ${reportText}`);
    }
    assert.deepEqual(
      Object.keys(report).filter((key) => key.includes(' turn ')),
      [],
      `no TURN outcome, hence no timing, reached the page: ${reportText}`,
    );
    for (const where of ['main', 'frame', 'worker', 'blob']) {
      const open = report[`${where} ws open`];
      assert.ok(open !== undefined && open !== 'open', `WebSocket of ${where} failed: ${reportText}`);
      assert.equal(report[`${where} ws closed`], open, `open and closed ports look the same to ${where}`);
    }

    const blocked = meta.rendered.blocked_requests;
    for (const where of ['main', 'frame', 'worker', 'blob']) {
      for (const [label, port] of [
        ['open', ports.open],
        ['closed', ports.closed],
      ] as const) {
        const url = `ws://127.0.0.1:${port}/${where}-${label}`;
        const entry = blocked.find((line) => line.startsWith(`${url}: `));
        assert.ok(entry, `${url} listed among ${JSON.stringify(blocked, null, 1)}`);
        assert.match(entry, /127\.0\.0\.1 is a loopback address/);
      }
    }
    for (const pathname of ['/beacon', '/events', '/prefetched', '/worker-fetch', '/blob-fetch']) {
      const url = `http://127.0.0.1:${ports.open}${pathname}`;
      assert.ok(
        blocked.some((line) => line.startsWith(`${url}: `)),
        `${url} listed among ${JSON.stringify(blocked, null, 1)}`,
      );
    }
  });

  test('a WebSocket to an address the policy allows still works', async () => {
    const seed = `${siteOrigin}/chat`;
    const { rows, fileNamed } = await crawl(seed);
    assert.equal(rows[0]?.is_crawl_ok, 'true', JSON.stringify(rows));
    assert.match(fileNamed('dom.html'), new RegExp(`<p id="chat">${CHAT_MESSAGE}</p>`));
    const meta = JSON.parse(fileNamed('meta.json')) as { rendered: { blocked_requests: string[] } };
    assert.deepEqual(meta.rendered.blocked_requests, []);
  });
});
