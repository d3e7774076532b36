/**
 * A local site behind HTTP Basic auth that tries every way of getting credentials into a crawl's
 * records: links and redirects with `user:password@` in the URL, a Content-Location with
 * credentials, a cookie, and the crawler's own Authorization header reflected in the response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SITE_USER = 'site-user';
export const SITE_PASSWORD = 'Site-Pa55word-9f3c';
export const LINK_PASSWORD = 'link-pass-77aa';
export const REDIRECT_PASSWORD = 'redirect-pass-5e1d';
export const LOCATION_PASSWORD = 'content-location-pass-2b9c';
export const COOKIE_VALUE = 'cookie-value-31f0';

/** Every secret string the site hands out: none may appear in what the crawl records. */
export const SITE_SECRETS = [
  SITE_PASSWORD,
  Buffer.from(`${SITE_USER}:${SITE_PASSWORD}`).toString('base64'),
  LINK_PASSWORD,
  REDIRECT_PASSWORD,
  LOCATION_PASSWORD,
  COOKIE_VALUE,
];

export interface BasicAuthSite {
  baseUrl: string;
  /** Paths requested with the right credentials, in order. */
  authorized: string[];
  close(): Promise<void>;
}

export async function startBasicAuthSite(): Promise<BasicAuthSite> {
  const authorized: string[] = [];
  const expected = `Basic ${Buffer.from(`${SITE_USER}:${SITE_PASSWORD}`).toString('base64')}`;
  let origin = '';
  const html = (title: string, body = '') =>
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="kumo-test"', 'content-type': 'text/html' });
      response.end(html('Unauthorized'));
      return;
    }
    authorized.push(path);
    const page = (title: string, body = '', headers: Record<string, string> = {}) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      response.end(html(title, body));
    };
    const withCredentials = (user: string, password: string, to: string) =>
      origin.replace('http://', `http://${user}:${password}@`) + to;
    switch (path) {
      case '/':
        page(
          'Home',
          `<a href="/plain.html">plain</a>
           <a href="${withCredentials('link-user', LINK_PASSWORD, '/linked.html')}">with credentials</a>
           <a href="/redirect">redirect</a>`,
          {
            'set-cookie': `session=${COOKIE_VALUE}; Path=/; HttpOnly`,
            // A server that reflects the request's credentials.
            authorization: request.headers.authorization ?? '',
            'content-location': withCredentials('cl-user', LOCATION_PASSWORD, '/'),
          },
        );
        return;
      case '/plain.html':
      case '/linked.html':
      case '/target.html':
        page(path.slice(1));
        return;
      case '/redirect':
        response.writeHead(302, { location: withCredentials('rd-user', REDIRECT_PASSWORD, '/target.html') });
        response.end();
        return;
      default:
        response.writeHead(404, { 'content-type': 'text/html' });
        response.end(html('Not found'));
    }
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    authorized,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
