import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ApiError } from '../api-error.js';
import type { MethodRegistry } from '../method-not-allowed.js';
import { isConsoleFile, isWebAssetsProblem, type WebAssetsLoad } from './widget-assets.js';
import { sendWebAsset } from './widget-asset-routes.js';

export interface ConsoleRoutesOptions {
  assets: WebAssetsLoad;
  methods: MethodRegistry;
}

export const CONSOLE_PATH = '/console';
const ASSETS_PATH = `${CONSOLE_PATH}/assets`;

/**
 * The console page may run only its own script and style, talk only to this service, and never
 * be framed (clickjacking a signed-in owner); images may be data: or blob: URLs (screenshot
 * thumbnails, charts). The "try it" frame shows the hosted search page, and a result clicked in
 * it opens the site's own page in that frame: any http(s) page may be framed by the console
 * (cross-origin, so it reaches nothing of the console).
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "frame-src 'self' http: https:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The management console (docs/console.md): one HTML page for every address under /console/
 * (the page picks its view from the address), and its script and stylesheet under
 * /console/assets/ by content-addressed names, cached for a year. The page itself holds no data:
 * everything it shows comes from the management API with the visitor's session.
 */
export const consoleRoutes: FastifyPluginAsync<ConsoleRoutesOptions> = async (app, options) => {
  options.methods.record(CONSOLE_PATH, 'GET');
  options.methods.record(`${CONSOLE_PATH}/*`, 'GET');
  options.methods.record(`${ASSETS_PATH}/:file`, 'GET');

  app.get(`${ASSETS_PATH}/:file`, { schema: { hide: true } }, async (request, reply) => {
    const { assets } = options;
    if (isWebAssetsProblem(assets)) throw new ApiError('unavailable', assets.problem);
    const { file } = request.params as { file: string };
    const found = assets.lookup(file);
    if (found === undefined || !isConsoleFile(found.asset.name)) {
      throw new ApiError('not_found', `no console file ${file}`);
    }
    return sendWebAsset(request, reply, found.asset, found.immutable);
  });
  const page = async (_request: unknown, reply: FastifyReply) => {
    const { assets } = options;
    if (isWebAssetsProblem(assets)) {
      return sendPage(reply, 503, unavailablePage(assets.problem));
    }
    const script = assets.lookup('console.js')?.asset.immutableName;
    const styles = assets.lookup('console.css')?.asset.immutableName;
    if (script === undefined || styles === undefined) {
      return sendPage(reply, 503, unavailablePage('the console is not in the build; run npm run build'));
    }
    return sendPage(reply, 200, consolePage(`${ASSETS_PATH}/${script}`, `${ASSETS_PATH}/${styles}`));
  };
  // The server ignores a trailing slash: /console and /console/ are the same start page.
  app.get(CONSOLE_PATH, { schema: { hide: true } }, page);
  app.get(`${CONSOLE_PATH}/*`, { schema: { hide: true } }, page);
};

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CONSOLE_CSP,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'same-origin',
    })
    .send(html);
}

/** The page every console address answers: the stylesheet, a mount point and the script. */
function consolePage(scriptPath: string, stylesPath: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="same-origin">',
    '<title>Kumo</title>',
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    `<link rel="stylesheet" href="${stylesPath}">`,
    `<script defer src="${scriptPath}"></script>`,
    '</head>',
    '<body>',
    '<div id="console"></div>',
    '<noscript>The Kumo console needs JavaScript. / Kumo 管理コンソールには JavaScript が必要です。</noscript>',
    '</body>',
    '</html>',
  ].join('\n');
}

function unavailablePage(problem: string): string {
  const escaped = problem.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Kumo console unavailable</title></head><body><h1>The console is unavailable</h1><p>${escaped}</p></body></html>`;
}
