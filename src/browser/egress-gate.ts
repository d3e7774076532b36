import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type AddressGuard, addressRefusalOf, AddressRefusedError } from '../net/index.js';
import { guardedLookup } from '../net/guarded-connector.js';

/**
 * The proxy a render session's browser context goes through for every connection Chromium opens
 * itself: the request interceptor answers every HTTP request of a page (fetched by Kumo over
 * guarded connections), so what reaches this gate is what the interceptor never sees — WebSocket
 * handshakes, WebRTC's TURN over TCP, preconnects. Chromium sends each as a CONNECT to the
 * gate, which opens the tunnel only to an address the address policy allows, judged on the
 * address actually connected to (guarded-connector.ts), and answers 403 at once otherwise: a
 * refused address is never contacted, so its open and closed ports look the same to a page.
 * Plain proxy requests are refused: a page's HTTP requests never come here. Listens on
 * loopback only. See docs/security.md, Rendered pages.
 */
export class EgressGate {
  /** Tunnel ends and client sockets, destroyed when the gate closes. */
  private readonly sockets = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    private readonly guard: AddressGuard,
    private readonly connectTimeoutMs: number,
  ) {
    server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
      response.end('only tunnels to addresses the address policy allows');
    });
    server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      this.track(client);
      this.tunnel(request.url ?? '', client, head);
    });
    server.on('connection', (socket: Socket) => this.track(socket));
  }

  /** A gate on a free loopback port; `connectTimeoutMs` bounds each tunnel's connection. */
  static async start(guard: AddressGuard, connectTimeoutMs: number): Promise<EgressGate> {
    const server = createServer();
    const gate = new EgressGate(server, guard, connectTimeoutMs);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return gate;
  }

  /** The proxy address for Chromium (`http://127.0.0.1:PORT`). */
  get proxyServer(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private tunnel(authority: string, client: Duplex, head: Buffer): void {
    const target = parseAuthority(authority);
    if (target === undefined) return answer(client, 400, 'Bad Request');
    // net.connect skips the lookup for an IP literal: it is judged here.
    if (isIP(target.host) !== 0 && this.guard.refusalOf(target.host) !== undefined) {
      return answer(client, 403, 'Forbidden');
    }
    const upstream = connect({
      host: target.host,
      port: target.port,
      lookup: guardedLookup(this.guard),
      timeout: this.connectTimeoutMs,
    });
    this.track(upstream);
    upstream.once('timeout', () => upstream.destroy(new Error('connection timed out')));
    let open = false;
    upstream.once('error', (error) => {
      if (open) client.destroy();
      else if (addressRefusalOf(error) === undefined) answer(client, 502, 'Bad Gateway');
      else answer(client, 403, 'Forbidden');
    });
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      // The peer is judged again before a byte is sent, as guarded-connector.ts does.
      const peer = upstream.remoteAddress;
      const refusal = peer === undefined ? 'no peer address' : this.guard.refusalOf(peer);
      if (refusal !== undefined) {
        upstream.destroy(new AddressRefusedError(target.host, refusal));
        return;
      }
      open = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  }
}

function answer(client: Duplex, status: number, text: string): void {
  if (client.destroyed) return;
  client.end(`HTTP/1.1 ${status} ${text}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
}

/** `host:port` or `[v6]:port` of a CONNECT request; undefined when it is neither. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(authority);
  if (match === null) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}
