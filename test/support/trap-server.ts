/**
 * Local HTTP fixture server full of "crawler traps" for the Kumo crawler tests.
 *
 * Every route exercises one behaviour a crawler has to get right (robots.txt, redirects, legacy charsets,
 * content encodings, auth, endless URL spaces, slow or hanging responses, ...). The server records every
 * request so tests can assert on what the crawler actually fetched.
 *
 * Only node built-ins are used so the fixture stays independent of the code under test.
 */
import { Buffer } from 'node:buffer';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface TrapServer {
  /** e.g. `http://127.0.0.1:PORT` (no trailing slash). */
  baseUrl: string;
  port: number;
  /** Request count keyed by path + query string, exactly as received in `req.url`. */
  hits: Map<string, number>;
  /** Every request in arrival order. */
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Stops the server, destroying open (slow, hanging, streaming, keep-alive) connections. */
  close(): Promise<void>;
}

export interface TrapServerOptions {
  /** Interface to listen on; defaults to `127.0.0.1`. */
  host?: string;
  /** How `/robots.txt` behaves; defaults to `'allow-most'`. */
  robots?: 'allow-most' | '404' | '500' | 'none';
}

const HTML = 'text/html; charset=utf-8';
const AUTH_USER = 'kumo';
const AUTH_PASSWORD = 's3cret';
const DEPTH_MAX = 10;
const MANY_MAX = 199;
const MANY_FANOUT = 5;
const BIG_CHUNK = Buffer.alloc(64 * 1024, 'a');
const BIG_CHUNKS = (40 * 1024 * 1024) / BIG_CHUNK.length;

// "日本語のページ" and "検索エンジン" hand-encoded, because Node's TextEncoder only speaks UTF-8.
const SJIS_TITLE = Buffer.from([
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57,
]);
const SJIS_BODY = Buffer.from([0x8c, 0x9f, 0x8d, 0xf5, 0x83, 0x47, 0x83, 0x93, 0x83, 0x57, 0x83, 0x93]);
const EUCJP_TITLE = Buffer.from([
  0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec, 0xa4, 0xce, 0xa5, 0xda, 0xa1, 0xbc, 0xa5, 0xb8,
]);
const EUCJP_BODY = Buffer.from([0xb8, 0xa1, 0xba, 0xf7, 0xa5, 0xa8, 0xa5, 0xf3, 0xa5, 0xb8, 0xa5, 0xf3]);

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  /** Path without the query string. */
  path: string;
  /** Raw query string without the leading `?` (empty when absent). */
  query: string;
}

type Handler = (ctx: Ctx) => void;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function page(title: string, body = ''): string {
  return `<!doctype html>\n<html><head><title>${escapeHtml(title)}</title></head>\n<body>${body}</body></html>\n`;
}

function link(href: string, text = href, rel?: string): string {
  const relAttr = rel === undefined ? '' : ` rel="${escapeHtml(rel)}"`;
  return `<a href="${escapeHtml(href)}"${relAttr}>${escapeHtml(text)}</a>\n`;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  headers: OutgoingHttpHeaders = {},
): void {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
    'Content-Length': buf.length,
    ...headers,
  });
  res.end(buf);
}

function sendHtml(
  res: ServerResponse,
  status: number,
  title: string,
  body = '',
  headers?: OutgoingHttpHeaders,
) {
  send(res, status, HTML, page(title, body), headers);
}

function redirect(res: ServerResponse, status: number, location: string): void {
  send(res, status, undefined, '', { Location: location });
}

function notFound(res: ServerResponse): void {
  sendHtml(res, 404, 'Not Found', '<p>Not Found</p>');
}

function isAuthorized(req: IncomingMessage): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return false;
  return Buffer.from(match[1], 'base64').toString('utf8') === `${AUTH_USER}:${AUTH_PASSWORD}`;
}

/** `/calendar/YYYY-MM` neighbour, shifted by `delta` months. */
function calendarMonth(year: number, month: number, delta: number): string {
  const index = year * 12 + (month - 1) + delta;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return `/calendar/${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;
}

export async function startTrapServer(options: TrapServerOptions = {}): Promise<TrapServer> {
  const host = options.host ?? '127.0.0.1';
  const robots = options.robots ?? 'allow-most';
  const hits = new Map<string, number>();
  const requests: TrapServer['requests'] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let port = 0;
  let failOnceServed = false;

  const exact = new Map<string, Handler>();
  const patterns: { re: RegExp; handler: (ctx: Ctx, m: RegExpExecArray) => void }[] = [];

  // robots.txt: allow-most disallows /private/; the 404/500/none variants test the fallback policies.
  exact.set('/robots.txt', ({ res }) => {
    switch (robots) {
      case 'allow-most':
        return send(res, 200, 'text/plain; charset=utf-8', 'User-agent: *\nDisallow: /private/\n');
      case '404':
        return send(res, 404, 'text/plain; charset=utf-8', 'Not Found\n');
      case '500':
        return send(res, 500, 'text/plain; charset=utf-8', 'Internal Server Error\n');
      case 'none':
        return notFound(res);
    }
  });

  // Home: the entry point that links into (almost) every trap below.
  exact.set('/', ({ res }) => {
    const body = [
      link('/a.html'),
      link('/b/'),
      link('/private/secret.html'),
      link('/depth/1'),
      link('/redirect/chain/1'),
      link('/sjis.html'),
      link('/eucjp.html'),
      link('/query?b=2&a=1'),
      link('/query?a=1&b=2'),
      link('/frag.html#one'),
      link('/frag.html#two'),
      link('/doc.pdf'),
      link('/file.docx'),
      link('/gzip.html'),
      link('/nolength.html'),
      link('/base/index.html'),
      link('mailto:x@example.com'),
      link('javascript:void(0)'),
      link('/nofollow-target.html', '/nofollow-target.html', 'nofollow'),
      // Another loopback host on the same port: out of scope unless the crawler allows extra hosts.
      link(`http://127.0.0.2:${port}/other-host.html`),
    ].join('');
    sendHtml(res, 200, 'Home', body);
  });

  // Basic link graph with a cycle (/ -> /a.html -> / ...) to test de-duplication.
  exact.set('/a.html', ({ res }) => sendHtml(res, 200, 'Page A', link('/') + link('/b/')));
  exact.set('/b/', ({ res }) => sendHtml(res, 200, 'Page B', link('/a.html')));

  // Disallowed by robots.txt; the server itself happily serves it so a leak is observable in `hits`.
  exact.set('/private/secret.html', ({ res }) => sendHtml(res, 200, 'Secret', '<p>secret</p>'));

  // Target of the cross-host link on the home page (only reachable when listening on 0.0.0.0).
  exact.set('/other-host.html', ({ res }) => sendHtml(res, 200, 'Other Host'));

  // Linear chain /depth/1 -> ... -> /depth/10 for max-depth tests.
  patterns.push({
    re: /^\/depth\/([1-9]\d*)$/,
    handler: ({ res }, m) => {
      const n = Number(m[1]);
      if (n > DEPTH_MAX) return notFound(res);
      sendHtml(res, 200, `Depth ${n}`, n < DEPTH_MAX ? link(`/depth/${n + 1}`) : '');
    },
  });

  // Redirects: a 301 -> 302 -> 200 chain, a self-loop and an off-site target.
  exact.set('/redirect/chain/1', ({ res }) => redirect(res, 301, '/redirect/chain/2'));
  exact.set('/redirect/chain/2', ({ res }) => redirect(res, 302, '/redirect/chain/3'));
  exact.set('/redirect/chain/3', ({ res }) => sendHtml(res, 200, 'Chain End'));
  exact.set('/redirect/loop', ({ res }) => redirect(res, 302, '/redirect/loop'));
  exact.set('/redirect/offsite', ({ res }) => redirect(res, 302, 'http://offsite.invalid/x'));

  // Shift_JIS bytes, charset only declared in a <meta> tag (header has none): tests charset sniffing.
  exact.set('/sjis.html', ({ res }) => {
    const body = Buffer.concat([
      Buffer.from('<!doctype html>\n<html><head><meta charset="Shift_JIS"><title>', 'latin1'),
      SJIS_TITLE,
      Buffer.from('</title></head>\n<body><p>', 'latin1'),
      SJIS_BODY,
      Buffer.from('</p>\n<a href="/a.html">/a.html</a>\n</body></html>\n', 'latin1'),
    ]);
    send(res, 200, 'text/html', body);
  });

  // EUC-JP bytes, charset only declared in the Content-Type header.
  exact.set('/eucjp.html', ({ res }) => {
    const body = Buffer.concat([
      Buffer.from('<!doctype html>\n<html><head><title>', 'latin1'),
      EUCJP_TITLE,
      Buffer.from('</title></head>\n<body><p>', 'latin1'),
      EUCJP_BODY,
      Buffer.from('</p></body></html>\n', 'latin1'),
    ]);
    send(res, 200, 'text/html; charset=EUC-JP', body);
  });

  // Echoes the raw query so tests can see whether `?b=2&a=1` and `?a=1&b=2` were normalized/deduplicated.
  // The query is HTML-escaped, so the parsed <title> text is exactly `Query <raw query>`.
  exact.set('/query', ({ res, query }) => sendHtml(res, 200, `Query ${query}`));

  // Linked as #one and #two: fragments must be stripped, so this is fetched once.
  exact.set('/frag.html', ({ res }) => sendHtml(res, 200, 'Fragments'));

  // Non-HTML documents: by extension, by content type only, and an Office document.
  exact.set('/doc.pdf', ({ res }) => send(res, 200, 'application/pdf', minimalPdf()));
  exact.set('/disguised-pdf', ({ res }) => send(res, 200, 'application/pdf', minimalPdf()));
  exact.set('/file.docx', ({ res }) =>
    send(
      res,
      200,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      // Starts like a ZIP (which a .docx is) but is not a real document.
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('not really a docx', 'latin1')]),
    ),
  );

  // Content-Encoding: gzip; Content-Length is the compressed size.
  exact.set('/gzip.html', ({ res }) => {
    const compressed = gzipSync(Buffer.from(page('Gzipped', '<p>compressed body</p>'), 'utf8'));
    send(res, 200, HTML, compressed, { 'Content-Encoding': 'gzip' });
  });

  // Chunked transfer encoding with no Content-Length, written in two pieces.
  exact.set('/nolength.html', ({ res }) => {
    const html = page('No Length', '<p>streamed without a length</p>');
    const half = Math.floor(html.length / 2);
    res.writeHead(200, { 'Content-Type': HTML });
    res.write(html.slice(0, half));
    res.end(html.slice(half));
  });

  // <base href> must be honoured: `target.html` resolves to /elsewhere/target.html.
  exact.set('/base/index.html', ({ res }) => {
    const html =
      '<!doctype html>\n<html><head><base href="/elsewhere/"><title>Base</title></head>\n' +
      '<body><a href="target.html">target</a></body></html>\n';
    send(res, 200, HTML, html);
  });
  exact.set('/elsewhere/target.html', ({ res }) => sendHtml(res, 200, 'Base Target'));

  // Linked with rel="nofollow" from the home page.
  exact.set('/nofollow-target.html', ({ res }) => sendHtml(res, 200, 'Nofollow Target'));

  // Page-level nofollow via <meta name="robots">.
  exact.set('/meta-nofollow.html', ({ res }) => {
    const html =
      '<!doctype html>\n<html><head><meta name="robots" content="nofollow"><title>Meta Nofollow</title></head>\n' +
      `<body>${link('/not-followed.html')}</body></html>\n`;
    send(res, 200, HTML, html);
  });
  exact.set('/not-followed.html', ({ res }) => sendHtml(res, 200, 'Not Followed'));

  // Page-level nofollow via the X-Robots-Tag response header.
  exact.set('/x-robots-nofollow.html', ({ res }) =>
    sendHtml(res, 200, 'X-Robots Nofollow', link('/not-followed-2.html'), { 'X-Robots-Tag': 'nofollow' }),
  );
  exact.set('/not-followed-2.html', ({ res }) => sendHtml(res, 200, 'Not Followed 2'));

  // HTTP Basic auth (kumo / s3cret), for both the section root and a page linked from it.
  const authPage =
    (title: string, body = ''): Handler =>
    ({ req, res }) => {
      if (!isAuthorized(req)) {
        return sendHtml(res, 401, 'Unauthorized', '', { 'WWW-Authenticate': 'Basic realm="test"' });
      }
      sendHtml(res, 200, title, body);
    };
  exact.set('/auth/', authPage('Authorized', link('/auth/inner.html')));
  exact.set('/auth/inner.html', authPage('Inner'));

  // Endless calendar: every month links to its neighbours, so only page/depth limits stop the crawl.
  patterns.push({
    re: /^\/calendar\/(\d{4,})-(\d{2})$/,
    handler: ({ res, path }, m) => {
      const year = Number(m[1]);
      const month = Number(m[2]);
      if (month < 1 || month > 12) return notFound(res);
      const body =
        link(calendarMonth(year, month, -1), 'previous') + link(calendarMonth(year, month, 1), 'next');
      sendHtml(res, 200, `Calendar ${path.slice('/calendar/'.length)}`, body);
    },
  });

  // Answers after `?ms=` milliseconds (default 3000): timeout tests. The timer dies with the connection.
  exact.set('/slow', ({ res, query }) => {
    const ms = Number(new URLSearchParams(query).get('ms') ?? 3000);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        if (!res.destroyed) sendHtml(res, 200, 'Slow');
      },
      Number.isFinite(ms) && ms >= 0 ? ms : 3000,
    );
    timers.add(timer);
    res.on('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  });

  // Never answers; close() destroys the socket.
  exact.set('/hang', () => {});

  // Server errors: permanent 500, a 503 (with Retry-After) that recovers, and a plain 404.
  exact.set('/fail/500', ({ res }) => sendHtml(res, 500, 'Server Error'));
  exact.set('/fail/503-once', ({ res }) => {
    if (!failOnceServed) {
      failOnceServed = true;
      return sendHtml(res, 503, 'Service Unavailable', '', { 'Retry-After': '1' });
    }
    sendHtml(res, 200, 'Recovered');
  });
  exact.set('/fail/404', ({ res }) => notFound(res));

  // 40 MiB of HTML without Content-Length: response size limits. Honours backpressure and stops on abort.
  exact.set('/big', ({ res }) => {
    res.writeHead(200, { 'Content-Type': HTML });
    res.write('<!doctype html>\n<html><head><title>Big</title></head>\n<body>');
    let sent = 0;
    const pump = (): void => {
      while (sent < BIG_CHUNKS) {
        if (res.destroyed) return;
        sent++;
        if (!res.write(BIG_CHUNK)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end('</body></html>\n');
    };
    pump();
  });

  exact.set('/plain.txt', ({ res }) => send(res, 200, 'text/plain; charset=utf-8', 'hello'));

  // Last-Modified header (with Content-Length) for metadata extraction tests.
  exact.set('/last-modified.html', ({ res }) =>
    sendHtml(res, 200, 'Last Modified', '<p>dated</p>', { 'Last-Modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }),
  );

  // 200 densely linked pages (/many/0 .. /many/199, fan-out 5): page limits and concurrency.
  patterns.push({
    re: /^\/many\/(0|[1-9]\d*)$/,
    handler: ({ res }, m) => {
      const n = Number(m[1]);
      if (n > MANY_MAX) return notFound(res);
      let body = '';
      for (let i = n + 1; i <= Math.min(n + MANY_FANOUT, MANY_MAX); i++) body += link(`/many/${i}`);
      sendHtml(res, 200, `Many ${n}`, body);
    },
  });

  const route = (ctx: Ctx): void => {
    const handler = exact.get(ctx.path);
    if (handler) {
      handler(ctx);
      return;
    }
    for (const { re, handler: patternHandler } of patterns) {
      const m = re.exec(ctx.path);
      if (m) {
        patternHandler(ctx, m);
        return;
      }
    }
    notFound(ctx.res);
  };

  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    hits.set(url, (hits.get(url) ?? 0) + 1);
    requests.push({ path: url, headers: req.headers });
    // A client that goes away mid-response must not crash the test process.
    res.on('error', () => {});
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q + 1);
    try {
      route({ req, res, path, query });
    } catch (err) {
      if (!res.headersSent) sendHtml(res, 500, 'Server Error', `<pre>${escapeHtml(String(err))}</pre>`);
      else res.destroy();
    }
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('trap server: unexpected address');
  port = address.port;

  // Wildcard listeners are reached through loopback; IPv6 literals need brackets in URLs.
  const urlHost =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    });
    return closing;
  };

  return { baseUrl: `http://${urlHost}:${port}`, port, hits, requests, close };
}

/** A tiny but structurally plausible PDF. */
function minimalPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n' +
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj\n' +
      'trailer << /Root 1 0 R >>\n' +
      '%%EOF\n',
    'latin1',
  );
}
