/**
 * A front door for a cluster on one machine (docs/operations.md, Trying a cluster on one machine):
 * one address where the console, the APIs, the widget and site search are all reached, as behind
 * the load balancer of a production cluster. Requests for site search (the finder base path), the
 * widget (/widget/) and the hosted search pages (/search/) go to the search nodes, everything else
 * to the API processes, each pool in turn. It is not a production load balancer: it checks no
 * member's health, and a request to a stopped member answers 502.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

export interface FrontDoorOptions {
  /** Address and port to listen on (0: any free port). */
  host: string;
  port: number;
  /** Base URLs of the processes with the api role. */
  api: readonly string[];
  /** Base URLs of the processes with the search role. */
  search: readonly string[];
  /** KUMO_FINDER_BASE_PATH of the cluster: the site search API's prefix. */
  finderBasePath: string;
}

export interface FrontDoor {
  /** `http://<host>:<port>` */
  url: string;
  close(): Promise<void>;
}

/** Prefixes of the paths the search nodes answer, besides the site search API's. */
const SEARCH_PREFIXES = ['/widget/', '/search/'];

/**
 * Headers of one connection, not of the message (RFC 9110, 7.6.1): never passed on. Host is kept,
 * so a process sees the address the browser used (its same-origin check of console changes).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  // Answered here: Node's server sends 100 Continue itself, and the member gets the whole body.
  'expect',
]);

/** Whether a request path is one the search nodes answer. */
export function goesToSearch(pathAndQuery: string, finderBasePath: string): boolean {
  const path = pathAndQuery.split('?', 1)[0]!;
  if (SEARCH_PREFIXES.some((prefix) => path.startsWith(prefix))) return true;
  // An empty base path puts the site search API at /contracts/..., which the crawl APIs share:
  // without a prefix of its own it cannot be told apart, and stays with the API processes.
  return finderBasePath !== '' && (path === finderBasePath || path.startsWith(`${finderBasePath}/`));
}

/** Members of one pool, taken in turn. */
class Rotation {
  private next = 0;
  private readonly pools: { url: string; pool: Pool }[];

  constructor(
    readonly name: string,
    urls: readonly string[],
  ) {
    // Run event streams stay open as long as a run goes on: no body timeout.
    this.pools = urls.map((url) => ({ url, pool: new Pool(url, { bodyTimeout: 0 }) }));
  }

  take(): { url: string; pool: Pool } | undefined {
    const member = this.pools[this.next % this.pools.length];
    this.next += 1;
    return member;
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map(({ pool }) => pool.destroy()));
  }
}

/** Starts the front door; it listens once the promise resolves. */
export async function startFrontDoor(options: FrontDoorOptions): Promise<FrontDoor> {
  if (options.api.length === 0) throw new Error('front door: at least one API process is needed');
  const api = new Rotation('API process', options.api);
  const search = new Rotation('search node', options.search.length > 0 ? options.search : options.api);
  const server = createServer((request, response) => {
    const rotation = goesToSearch(request.url ?? '/', options.finderBasePath) ? search : api;
    void forward(request, response, rotation);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([api.close(), search.close()]);
    },
  };
}

/** Sends the request to the next member of `rotation` and its answer back, streamed both ways. */
async function forward(
  request: IncomingMessage,
  response: ServerResponse,
  rotation: Rotation,
): Promise<void> {
  const member = rotation.take()!;
  const method = request.method ?? 'GET';
  let answer: Awaited<ReturnType<Pool['request']>>;
  try {
    answer = await member.pool.request({
      method: method as 'GET',
      path: request.url ?? '/',
      headers: forwardedHeaders(request),
      body: method === 'GET' || method === 'HEAD' ? null : request,
    });
  } catch (error) {
    answerUnreachable(response, `${rotation.name} ${member.url}`, error);
    return;
  }
  response.writeHead(answer.statusCode, passedHeaders(answer.headers));
  try {
    await pipeline(answer.body, response);
  } catch {
    // The browser went away, or the member did mid-answer: the connection is closed either way.
    response.destroy();
  }
}

/** The request's headers for the member: without the hop-by-hop ones, with X-Forwarded-*. */
function forwardedHeaders(request: IncomingMessage): Record<string, string | string[]> {
  const headers = passedHeaders(request.headers);
  const client = request.socket.remoteAddress ?? '';
  const before = request.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = typeof before === 'string' && before !== '' ? `${before}, ${client}` : client;
  headers['x-forwarded-proto'] = 'http';
  if (request.headers.host !== undefined) headers['x-forwarded-host'] = request.headers.host;
  return headers;
}

/** Headers without the hop-by-hop ones, and without those the Connection header names. */
function passedHeaders(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const passed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) passed[name] = value;
  return passed;
}

/** 502 in the API's error shape, naming the member that could not be reached. */
function answerUnreachable(response: ServerResponse, member: string, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const reason = error instanceof Error ? error.message : String(error);
  response.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
  response.end(
    JSON.stringify({ status: 'NG', message: `the front door could not reach the ${member}: ${reason}` }),
  );
}
