/**
 * Child process of load:search: the crawl-benchmark site (bench-site-pages.ts) on 127.0.0.1, each
 * page answered after `delayMs` as a remote server would, so a crawl at the default concurrency
 * goes on for minutes. Pages are rendered per request (no cache: the site is large). Sends
 * `{port}` once listening; exits when its parent goes.
 */
import http from 'node:http';
import { type BenchSiteOptions, pageIndexOf, renderBenchPage } from './bench-site-pages.js';

export interface LoadSiteOptions extends BenchSiteOptions {
  delayMs: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadSiteOptions;

const server = http.createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0]!;
  if (path === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    return;
  }
  const index = pageIndexOf(path, options.pages);
  setTimeout(() => {
    if (index === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not Found</title>');
      return;
    }
    const body = renderBenchPage(index, options);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length })
      .end(body);
  }, options.delayMs);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
process.on('disconnect', () => process.exit(0));
