/**
 * The path of a page from a site to a search box: the service crawls a local site holding HTML,
 * a PDF and office files, `kumo index --run` loads the finished run into search service 1, and
 * the site search API finds the pages, each with its document type.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/cli-runner.js';
import { startTestService, type TestService } from '../support/service-harness.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/documents/', import.meta.url));
const SEARCH = '/api/v1.0/finder_service/documents/1/1/1';

function faqPage(title: string): string {
  return (
    `<html><head><title>${title}</title></head><body><p>Refunds are issued within fourteen days ` +
    'of the return reaching our warehouse; the parcel must hold the original receipt and the ' +
    'order number printed on it.</p></body></html>'
  );
}

const PAGES: Record<string, { type: string; body: Buffer }> = {
  '/': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(
      '<html><head><title>資料室</title></head><body><h1>資料の一覧</h1>' +
        '<a href="/guide.html">guide</a> <a href="/sample.pdf">pdf</a> <a href="/sample.docx">docx</a> ' +
        '<a href="/sample.xlsx">xlsx</a> <a href="/hidden.html">hidden</a> ' +
        '<a href="/support/faq-copy.html">faq copy</a> <a href="/faq.html">faq</a></body></html>',
    ),
  },
  // Two URLs with the same main text: one result, under the shorter URL.
  '/faq.html': { type: 'text/html; charset=utf-8', body: Buffer.from(faqPage('Returns')) },
  '/support/faq-copy.html': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(faqPage('Returns and refunds (support copy)')),
  },
  '/guide.html': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(
      '<html><head><title>Installation guide</title><meta name="description" content="How to install the widget">' +
        '</head><body><h2>Install</h2><p>Run the installer and restart.</p></body></html>',
    ),
  },
  '/hidden.html': {
    type: 'text/html; charset=utf-8',
    body: Buffer.from(
      '<html><head><title>Hidden installer notes</title><meta name="robots" content="noindex"></head>' +
        '<body>installer internals</body></html>',
    ),
  },
  '/sample.pdf': { type: 'application/pdf', body: readFileSync(`${FIXTURES}sample.pdf`) },
  '/sample.docx': {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: readFileSync(`${FIXTURES}sample.docx`),
  },
  '/sample.xlsx': {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: readFileSync(`${FIXTURES}sample.xlsx`),
  },
};

let site: Server;
let siteUrl: string;
let service: TestService;
let requestId: number;

before(async () => {
  site = createServer((req, res) => {
    const page = PAGES[req.url ?? ''];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': page.type, 'last-modified': 'Tue, 01 Oct 2024 00:00:00 GMT' });
    res.end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  service = await startTestService();
  requestId = await service.requestCrawl({
    seed_urls: [`${siteUrl}/`],
    crawl_file: { pdf: 1, ms_office: 1 },
    robots_txt: false,
  });
  const history = await service.waitForFinished(requestId);
  assert.equal(history.crawl_execution_status_dtype_id, 2030);
});

after(async () => {
  await service.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const search = async (query: string) => {
  const response = await fetch(`${service.url}${SEARCH}/search?${query}`);
  assert.equal(response.status, 200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer is inspected field by field
  return (await response.json()) as any;
};

describe('crawl, index a run, search', () => {
  test('kumo index --run loads the finished run into the search service, with counts', async () => {
    const indexed = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
      KUMO_DATA_DIR: service.dataDir,
    });
    assert.equal(indexed.code, 0, indexed.stderr);
    // The home page, the guide, the two FAQ pages, the PDF, the docx and the xlsx; the noindex
    // page is left out.
    assert.match(
      indexed.stdout,
      /search service 1: 7 pages indexed .*\(7 new, 0 changed, 0 unchanged, 0 skipped\)/,
    );
  });

  test('HTML pages are found with their description and headings; noindex pages are not', async () => {
    const answer = await search('q=installer');
    assert.deepEqual(
      answer.organic.docs.map((doc: { url: string }) => doc.url),
      [`${siteUrl}/guide.html`],
    );
    const [guide] = answer.organic.docs;
    assert.equal(guide.description, 'How to install the widget');
    assert.equal(guide.doctype, 'html');
    assert.equal(guide.last_modified, Date.parse('2024-10-01T00:00:00Z') / 1000);
    assert.equal(guide.content_size, PAGES['/guide.html']!.body.length);
  });

  test('two URLs with the same main text are one result, under the shorter URL, naming the other', async () => {
    const answer = await search('q=warehouse');
    assert.equal(answer.organic.hits, 1);
    assert.deepEqual(
      answer.organic.docs.map((doc: { url: string; title: string }) => [doc.url, doc.title]),
      [[`${siteUrl}/faq.html`, 'Returns']],
    );
    assert.deepEqual(answer.organic.docs[0].duplicate_urls, [`${siteUrl}/support/faq-copy.html`]);
    // Words only the copy's title holds find the copy, which names the other page.
    const copyTitle = await search('q=support+copy');
    assert.deepEqual(
      copyTitle.organic.docs.map((doc: { url: string; duplicate_urls: string[] }) => [
        doc.url,
        doc.duplicate_urls,
      ]),
      [[`${siteUrl}/support/faq-copy.html`, [`${siteUrl}/faq.html`]]],
    );
    // A result without copies has no duplicate_urls member at all.
    const guide = await search('q=installer');
    assert.equal('duplicate_urls' in guide.organic.docs[0], false);
    const cli = await runCli(['search', '--service', '1', 'warehouse'], 60_000, {
      KUMO_DATA_DIR: service.dataDir,
    });
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /^1 pages match$/m);
    assert.match(
      cli.stdout,
      new RegExp(
        `^1\tReturns\t${siteUrl}/faq\\.html\n\t\tsame text: ${siteUrl}/support/faq-copy\\.html$`,
        'm',
      ),
    );
  });

  test('PDF and office files are searchable by their text and filtered by doctype', async () => {
    const all = await search('q=&number_per_page=0');
    assert.equal(all.organic.hits, 0, 'an empty query finds nothing');
    const pdf = await search(`q=${encodeURIComponent('Kumo')}&doctype=pdf`);
    assert.deepEqual(
      pdf.organic.docs.map((doc: { url: string; doctype: string }) => [doc.url, doc.doctype]),
      [[`${siteUrl}/sample.pdf`, 'pdf']],
    );
    const office = await search(`q=${encodeURIComponent('Kumo')}&doctype=doc,xls`);
    assert.deepEqual(office.organic.docs.map((doc: { url: string }) => doc.url).sort(), [
      `${siteUrl}/sample.docx`,
      `${siteUrl}/sample.xlsx`,
    ]);
  });

  test('indexing the same run again changes nothing', async () => {
    const again = await runCli(['index', '--service', '1', '--run', String(requestId)], 60_000, {
      KUMO_DATA_DIR: service.dataDir,
    });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /\(0 new, 0 changed, 7 unchanged, 0 skipped\)/);
  });

  test('--run refuses an unknown request and a bundle given with it', async () => {
    const unknown = await runCli(['index', '--service', '1', '--run', '999'], 30_000, {
      KUMO_DATA_DIR: service.dataDir,
    });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--run: no crawl request 999 in contract 1, service group 1/);
    const both = await runCli(['index', '--service', '1', '--run', '1', 'x.tar.gz'], 30_000, {
      KUMO_DATA_DIR: service.dataDir,
    });
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either --run ID or a bundle/);
  });
});
