/** Child process serving the benchmark site on loopback, so serving does not compete with the crawler's thread. */
import http from 'node:http';
import { serveToParent } from './site-process.js';
import { revisedHtml, revisionOf } from './site-revisions.js';
import { type BenchSiteOptions, pageIndexOf, renderBenchPage } from './bench-site-pages.js';

const options = JSON.parse(process.argv[2] ?? '{}') as BenchSiteOptions;
/**
 * Pages kept once rendered, so a repeated crawl finds the site warm. A site larger than this (the
 * million pages of bench:scale) renders the rest on each request rather than hold gigabytes.
 */
const CACHED_PAGES = 50_000;
const cache = new Map<number, Buffer>();
let served = 0;

const server = http.createServer((request, response) => {
  served += 1;
  const path = (request.url ?? '/').split('?')[0]!;
  if (path === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    return;
  }
  const index = pageIndexOf(path, options.pages);
  if (index === undefined) {
    response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not Found</title>');
    return;
  }
  let body = cache.get(index);
  if (!body) {
    body = renderBenchPage(index, options);
    if (cache.size < CACHED_PAGES) cache.set(index, body);
  }
  const revision = revisionOf(path);
  if (revision !== undefined) body = revisedHtml(body, revision);
  response
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length })
    .end(body);
});
serveToParent(server, () => served);
