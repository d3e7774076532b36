/**
 * `npm run bench:recrawl`: what a conditional re-crawl saves (docs/reference/crawl-rules.md,
 * Conditional re-crawls). Debian's nginx serves a local documentation site (it sends ETag and
 * Last-Modified, and answers If-None-Match / If-Modified-Since with 304); the site is crawled
 * once in full, then again with the first crawl as the previous run, as a scheduled setting's
 * second run is. A third crawl reads a sitemap listing every HTML file with its modification day
 * as `lastmod`, with `sitemap_lastmod_skip_days` 7 and the second crawl as its previous run (Sitemap
 * lastmod skip). Prints, for each crawl, its time, the requests and the body bytes nginx sent.
 * `-- --site <folder> --start <path>` (default: the PostgreSQL manual of postgresql-doc-15).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createUndiciFetcher, PreviousAnswers } from '../src/crawler/engine.js';
import { localMemberReader } from '../src/crawler/index.js';
import { resolveCrawlSettings } from '../src/domain/index.js';
import { RUN_REPORT_FILE } from '../src/run-data/index.js';
import { systemClock } from '../src/util/index.js';
import { executeCrawl } from '../src/worker/execute-crawl.js';
import { freePort } from './engines/free-port.js';

const NGINX = '/usr/sbin/nginx';
const { values } = parseArgs({
  options: {
    site: { type: 'string', default: '/usr/share/doc/postgresql-doc-15/html' },
    start: { type: 'string', default: '/index.html' },
  },
});
const site = path.resolve(values.site!);
if (!existsSync(NGINX) || !existsSync(site)) {
  process.stderr.write(
    `bench:recrawl needs ${NGINX} (Debian package nginx-light) and the site folder ${site} ` +
      '(Debian package postgresql-doc-15, or --site)\n',
  );
  process.exit(2);
}

const folder = await mkdtemp(path.join(os.tmpdir(), 'kumo-recrawl-'));
const port = await freePort();
const accessLog = path.join(folder, 'access.log');
await writeFile(
  path.join(folder, 'nginx.conf'),
  `worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log;
events { worker_connections 256; }
http {
  log_format sent '$status $body_bytes_sent';
  access_log ${accessLog} sent;
  types { text/html html; text/css css; image/png png; image/gif gif; image/svg+xml svg; }
  client_body_temp_path ${folder}/body; proxy_temp_path ${folder}/proxy; fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi; scgi_temp_path ${folder}/scgi;
  server {
    listen 127.0.0.1:${port}; root ${site};
    location = /sitemap.xml { alias ${folder}/sitemap.xml; }
  }
}
`,
);
const nginx = spawn(NGINX, ['-p', folder, '-c', path.join(folder, 'nginx.conf'), '-g', 'daemon off;'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
await new Promise((resolve) => setTimeout(resolve, 300));
const seed = `http://127.0.0.1:${port}${values.start}`;
process.stdout.write(`bench:recrawl  ${site} served by nginx, from ${values.start}, concurrency 16\n`);

/** Requests and body bytes nginx logged from `fromLine` on. */
async function served(
  fromLine: number,
): Promise<{ lines: number; requests: number; bytes: number; notModified: number }> {
  const lines = (await readFile(accessLog, 'utf8')).split('\n').filter((line) => line !== '');
  let bytes = 0;
  let notModified = 0;
  for (const line of lines.slice(fromLine)) {
    const [status, sent] = line.split(' ');
    bytes += Number(sent);
    if (status === '304') notModified += 1;
  }
  return { lines: lines.length, requests: lines.length - fromLine, bytes, notModified };
}

/** A sitemap of every HTML file of the site, each with its modification day as `lastmod`. */
async function writeSitemap(): Promise<number> {
  const entries: string[] = [];
  for (const name of await readdir(site, { recursive: true })) {
    if (!name.endsWith('.html')) continue;
    const day = (await stat(path.join(site, name))).mtime.toISOString().slice(0, 10);
    entries.push(`<url><loc>http://127.0.0.1:${port}/${name}</loc><lastmod>${day}</lastmod></url>`);
  }
  // nginx's workers are not the user running the bench: they read the sitemap through the folder.
  await chmod(folder, 0o755);
  await writeFile(
    path.join(folder, 'sitemap.xml'),
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('\n')}</urlset>`,
  );
  return entries.length;
}

async function crawlOnce(
  name: string,
  previous: PreviousAnswers | undefined,
  logLine: number,
  trustSitemap = false,
) {
  const fetcher = createUndiciFetcher();
  const started = performance.now();
  try {
    const execution = await executeCrawl(
      resolveCrawlSettings({
        seed_urls: [seed],
        base_concurrent_requests: 16,
        ...(trustSitemap && { sitemaps: true, sitemap_lastmod_skip_days: 7 }),
      }),
      { workFolder: path.join(folder, name, 'work'), artifactFolder: path.join(folder, name, 'out') },
      {
        fetcher,
        clock: systemClock,
        limits: {
          timeoutMs: 30_000,
          maxRedirects: 10,
          maxBodyBytes: 32 << 20,
          retryCount: 2,
          retryBaseDelayMs: 1000,
        },
        defaultUserAgent: 'KumoBench',
        timezone: 'UTC',
        ...(previous && { previous }),
      },
      {
        cancelSignal: new AbortController().signal,
        deadlineMicros: systemClock.nowMicros() + 3600 * 1_000_000,
      },
      new Set(['completed', 'limit_reached']),
      { writeReport: true },
    );
    const seconds = (performance.now() - started) / 1000;
    const log = await served(logLine);
    const mb = (log.bytes / 1024 / 1024).toFixed(2);
    process.stdout.write(
      `${name.padEnd(8)} ${execution.progress.crawled} pages in ${seconds.toFixed(2)} s; nginx: ${log.requests} requests, ` +
        `${mb} MB of bodies, ${log.notModified} answered 304; kept from before: ${execution.keptPages ?? 0}` +
        (trustSitemap ? `, kept without a request: ${execution.keptUnasked?.pages ?? 0}` : '') +
        '\n',
    );
    return { seconds, log };
  } finally {
    await fetcher.close();
  }
}

/** The answers of the crawl `name` left, as the next run of its setting reads them. */
function answersOf(name: string): PreviousAnswers {
  const bundle = localMemberReader(path.join(folder, name, 'out', 'crawl_objects.tar.gz'));
  const previous = bundle && PreviousAnswers.open(path.join(folder, name, 'out', RUN_REPORT_FILE), bundle);
  if (previous === undefined) throw new Error(`the ${name} crawl left no report or bundle`);
  return previous;
}

try {
  const listed = await writeSitemap();
  const first = await crawlOnce('first', undefined, 0);
  const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
  const fromFirst = answersOf('first');
  let second: Awaited<ReturnType<typeof crawlOnce>>;
  try {
    second = await crawlOnce('second', fromFirst, first.log.lines);
    process.stdout.write(
      `second / first: ${share(second.log.bytes, first.log.bytes)} of the bytes, ` +
        `${share(second.seconds, first.seconds)} of the time\n`,
    );
  } finally {
    fromFirst.close();
  }
  process.stdout.write(`third: a sitemap lists ${listed} HTML files with their modification day\n`);
  const fromSecond = answersOf('second');
  try {
    const third = await crawlOnce('third', fromSecond, second.log.lines, true);
    process.stdout.write(
      `third / first: ${share(third.log.requests, first.log.requests)} of the requests, ` +
        `${share(third.seconds, first.seconds)} of the time\n`,
    );
  } finally {
    fromSecond.close();
  }
} finally {
  nginx.kill();
  await rm(folder, { recursive: true, force: true });
}
