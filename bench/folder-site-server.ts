/**
 * Child process serving a folder of HTML as a site on loopback (bench:crawl --site): a local copy
 * of a real documentation site (Debian's postgresql-doc or apache2-doc, a wget mirror), answered
 * as its web server would: keep-alive, a content type by extension, `index.html` for a folder, 404
 * for anything else. Files are read once and kept in memory, so the disk is not what is measured.
 */
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import { serveToParent } from './site-process.js';
import { revisedHtml, revisionOf } from './site-revisions.js';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

const root = path.resolve(process.argv[2] ?? '.');
const cache = new Map<string, { body: Buffer; type: string; modified: string } | undefined>();
let served = 0;

async function load(pathname: string) {
  if (cache.has(pathname)) return cache.get(pathname);
  let file = path.join(root, pathname);
  let info = file.startsWith(root) ? await stat(file).catch(() => undefined) : undefined;
  if (info?.isDirectory()) {
    file = path.join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  const entry =
    info?.isFile() === true
      ? {
          body: await readFile(file),
          type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
          modified: info.mtime.toUTCString(),
        }
      : undefined;
  cache.set(pathname, entry);
  return entry;
}

const server = http.createServer((request, response) => {
  served += 1;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://site').pathname);
  } catch {
    response.writeHead(400).end();
    return;
  }
  void load(pathname).then((entry) => {
    if (entry === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not Found</title>');
      return;
    }
    const revision = entry.type.startsWith('text/html') ? revisionOf(pathname) : undefined;
    const body = revision === undefined ? entry.body : revisedHtml(entry.body, revision);
    response
      .writeHead(200, {
        'content-type': entry.type,
        'content-length': body.length,
        'last-modified': revision?.modified ?? entry.modified,
      })
      .end(body);
  });
});
serveToParent(server, () => served);
