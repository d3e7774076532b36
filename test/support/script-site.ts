/**
 * Local fixture site of pages that only make sense in a browser: links written by scripts, a
 * hash-routed app, a page that never stops polling, a page whose script never arrives, a tall
 * page, pages behind basic auth, redirects, sub-resources and a Shift_JIS page. Records every
 * request (path and headers) so tests can assert what the browser fetched.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ScriptSite {
  baseUrl: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  hitsOf(path: string): number;
  close(): Promise<void>;
}

export const SITE_USER = 'render';
export const SITE_PASSWORD = 'p4ss';
/** Height of the tall page's content in CSS pixels. */
export const TALL_PAGE_HEIGHT = 4000;

const HTML = 'text/html; charset=utf-8';

function html(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

/** Links the page's script inserts 50 ms after load: none of them is in the served HTML. */
const SCRIPT_LINKS = html(
  'Script links',
  `<h1>Script links</h1><nav id="nav"></nav>
<script>
  setTimeout(() => {
    for (const target of ['/plain/one', '/plain/two']) {
      const a = document.createElement('a');
      a.href = target;
      a.textContent = target;
      document.getElementById('nav').appendChild(a);
    }
    document.title = 'Script links (rendered)';
  }, 50);
</script>`,
);

/**
 * A hash router that reads the route once, at load: a tab that reused the previous document
 * (a same-page fragment change) would show the wrong route.
 */
const HASH_APP = html(
  'Hash app',
  `<main id="view"></main>
<script>
  const routes = {
    '': '<h1>Home</h1><a href="#/a">A</a> <a href="#/b">B</a>',
    '#/a': '<h1>Route A</h1><a href="#/c">C</a>',
    '#/b': '<h1>Route B</h1>',
    '#/c': '<h1>Route C</h1>',
  };
  document.getElementById('view').innerHTML = routes[location.hash] ?? '<h1>Unknown</h1>';
</script>`,
);

/** Moves itself with history.pushState, then writes a relative link meant for the new address. */
const PUSH_STATE = html(
  'Push state',
  `<script>
  history.pushState({}, '', '/deep/dir/');
  document.body.insertAdjacentHTML('beforeend', '<a href="leaf">leaf</a>');
</script>`,
);

/** Loads, then never gives the main thread back: only the hard page limit ends it. */
const SPIN = html('Spin', `<p>spin</p><script>setTimeout(() => { for (;;) {} }, 0);</script>`);

/** Opens a popup to `target` (another host) as soon as it runs. */
export function pageWithPopupTo(target: string): string {
  return html('Popup', `<p>popup</p><script>window.open(${JSON.stringify(target)});</script>`);
}

/** A protected page whose protected script redirects to `target` (another host). */
const AUTH_BOUNCE_PAGE = html('Bounce', '<p>bounce</p><script src="/auth/bounce.js"></script>');

/**
 * Keeps two long polls to its server open forever, started 200 ms apart, so a request is in flight
 * at every moment: the network never goes idle, however late the browser's timers run.
 */
const BUSY = html(
  'Busy',
  `<div id="out"></div>
<script>
  setTimeout(() => {
    const a = document.createElement('a');
    a.href = '/plain/one';
    a.textContent = 'one';
    document.getElementById('out').appendChild(a);
  }, 30);
  let n = 0;
  const poll = async () => {
    for (;;) await fetch('/busy/poll?n=' + n++).catch(() => new Promise((wait) => setTimeout(wait, 100)));
  };
  poll();
  setTimeout(poll, 200);
</script>`,
);

/** How long the server holds each of the busy page's polls. */
const BUSY_POLL_HOLD_MS = 400;

/** A blocking script that never arrives: the document never finishes parsing. */
const HANG = html('Hang', '<p>before</p><script src="/never.js"></script><p>after</p>');

const TALL = html(
  'Tall',
  `<div style="height:${TALL_PAGE_HEIGHT}px;background:linear-gradient(#fff,#036)">tall</div>`,
);

/** Its script is behind basic auth too: it only runs when the browser sends the credentials. */
const AUTH_PAGE = html('Protected', '<p>protected page</p><script src="/auth/app.js"></script>');
const AUTH_SCRIPT = `document.body.insertAdjacentHTML('beforeend',
  '<p id="loaded">app loaded</p><a href="/auth/next">next</a>');`;

const LANDING = html(
  'Landing',
  '<p>landed</p><script>document.body.insertAdjacentHTML("beforeend", \'<a href="child">child</a>\')</script>',
);

const WITH_RESOURCES = html(
  'Resources',
  '<img src="/res/pixel.gif" alt=""><script src="/res/lib.js"></script><a href="/plain/one">one</a>',
  '<link rel="stylesheet" href="/res/style.css">',
);

/** A script redirect: the page replaces itself with /plain/two. */
const SCRIPT_REDIRECT = html(
  'Moving',
  `<script>setTimeout(() => { location.href = '/plain/two'; }, 20);</script>`,
);

// "日本語のページ" in Shift_JIS, hand-encoded because Node's TextEncoder only speaks UTF-8.
const SJIS_TEXT = Buffer.from([
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x79, 0x81, 0x5b, 0x83, 0x57,
]);
const SJIS_PAGE = Buffer.concat([
  Buffer.from('<html><head><meta charset="Shift_JIS"><title>sjis</title></head><body><p id="jp">'),
  SJIS_TEXT,
  Buffer.from('</p></body></html>'),
]);

const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** A page that loads an image from `imageUrl` (another host), to test the address policy. */
export function pageWithImageFrom(imageUrl: string): string {
  return html('Foreign image', `<img src="${imageUrl}" alt=""><p>foreign image</p>`);
}

export interface ScriptSiteOptions {
  host?: string;
  /** More pages: path -> HTML. */
  pages?: Record<string, string>;
  /** Redirects: path -> Location (302), behind basic auth when the path starts with /auth/. */
  redirects?: Record<string, string>;
}

export async function startScriptSite(options: ScriptSiteOptions = {}): Promise<ScriptSite> {
  const host = options.host ?? '127.0.0.1';
  const extraPages = options.pages ?? {};
  const redirects = options.redirects ?? {};
  const requests: ScriptSite['requests'] = [];
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const challenge = (res: ServerResponse) => {
    res.writeHead(401, { 'www-authenticate': 'Basic realm="fixture"', 'content-type': 'text/plain' });
    res.end('unauthorized');
  };
  const authorized = (headers: IncomingHttpHeaders) =>
    headers.authorization === `Basic ${Buffer.from(`${SITE_USER}:${SITE_PASSWORD}`).toString('base64')}`;

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ path: req.url ?? '/', headers: req.headers });
    if (path in extraPages) return send(res, 200, HTML, extraPages[path]!);
    if (path in redirects) {
      if (path.startsWith('/auth/') && !authorized(req.headers)) return challenge(res);
      res.writeHead(302, { location: redirects[path]! });
      return res.end();
    }
    switch (path) {
      case '/robots.txt':
        return send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /forbidden\n');
      case '/script-links':
        return send(res, 200, HTML, SCRIPT_LINKS);
      case '/plain/one':
      case '/plain/two':
        return send(res, 200, HTML, html(path, `<p>${path}</p>`));
      case '/hash-app':
        return send(res, 200, HTML, HASH_APP);
      case '/push-state':
        return send(res, 200, HTML, PUSH_STATE);
      case '/deep/dir/leaf':
        return send(res, 200, HTML, html('Leaf', '<p>leaf</p>'));
      case '/spin':
        return send(res, 200, HTML, SPIN);
      case '/busy':
        return send(res, 200, HTML, BUSY);
      case '/busy/poll': // held open, so the next poll starts before this one ends
        return void setTimeout(
          () => res.destroyed || send(res, 200, 'application/json', '{"ok":true}'),
          BUSY_POLL_HOLD_MS,
        );
      case '/hang':
        return send(res, 200, HTML, HANG);
      case '/never.js':
        return; // never answered; the socket is destroyed when the server closes
      case '/tall':
        return send(res, 200, HTML, TALL);
      case '/auth/bounce-page':
        if (!authorized(req.headers)) return challenge(res);
        return send(res, 200, HTML, AUTH_BOUNCE_PAGE);
      case '/auth/page':
      case '/auth/next':
      case '/auth/app.js':
        if (!authorized(req.headers)) return challenge(res);
        if (path === '/auth/app.js') return send(res, 200, 'text/javascript', AUTH_SCRIPT);
        return send(res, 200, HTML, path === '/auth/page' ? AUTH_PAGE : html('Next', '<p>next</p>'));
      case '/r/start':
        res.writeHead(302, { location: '/r/landing' });
        return res.end();
      case '/r/landing':
        return send(res, 200, HTML, LANDING);
      case '/r/child':
        return send(res, 200, HTML, html('Child', '<p>child</p>'));
      case '/resources':
        return send(res, 200, HTML, WITH_RESOURCES);
      case '/res/pixel.gif':
        return send(res, 200, 'image/gif', PIXEL_GIF);
      case '/res/lib.js':
        return send(res, 200, 'text/javascript', 'window.libLoaded = true;');
      case '/res/style.css':
        return send(res, 200, 'text/css', 'body { margin: 0 }');
      case '/script-redirect':
        return send(res, 200, HTML, SCRIPT_REDIRECT);
      case '/sjis':
        return send(res, 200, 'text/html; charset=Shift_JIS', SJIS_PAGE);
      default:
        return send(res, 404, 'text/plain', 'not found');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    baseUrl: `http://${host}:${address.port}`,
    requests,
    hitsOf: (wanted) => requests.filter((request) => request.path.split('?')[0] === wanted).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
