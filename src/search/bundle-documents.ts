import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { decodeHtml } from '../crawler/charset.js';
import type { IndexedDocument } from './indexed-document.js';
import { pageTextOf } from './html-text.js';

/** What one page folder of a crawl bundle holds, by file name. */
type PageFiles = Map<string, Buffer>;

/**
 * The searchable documents of a `crawl_objects.tar.gz`: one per HTML page folder, from its
 * rendered `dom.html` when there is one (what a visitor sees), else `source.html` decoded with
 * its detected charset. Pages marked noindex are left out. Read as a stream: a folder's files
 * are contiguous in the bundle, so only one page is held at a time.
 */
export async function* bundleDocuments(bundleFile: string): AsyncGenerator<IndexedDocument> {
  const extractor = extract();
  const source = createReadStream(bundleFile).pipe(createGunzip());
  source.on('error', (error) => extractor.destroy(error));
  source.pipe(extractor);
  let folder: string | undefined;
  let files: PageFiles = new Map();
  for await (const entry of extractor) {
    const name = entry.header.name;
    const slash = name.lastIndexOf('/');
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    if (name.slice(0, slash) !== folder) {
      const document = folder === undefined ? undefined : documentOf(files);
      if (document !== undefined) yield document;
      folder = name.slice(0, slash);
      files = new Map();
    }
    files.set(name.slice(slash + 1), Buffer.concat(chunks));
  }
  const last = documentOf(files);
  if (last !== undefined) yield last;
}

function documentOf(files: PageFiles): IndexedDocument | undefined {
  const metaFile = files.get('meta.json');
  if (metaFile === undefined) return undefined;
  const meta = JSON.parse(metaFile.toString('utf8')) as { url: string; headers?: Record<string, string> };
  const dom = files.get('dom.html');
  const source = files.get('source.html');
  let html: string;
  if (dom !== undefined) html = dom.toString('utf8');
  else if (source !== undefined) html = decodeHtml(source, meta.headers?.['content-type']).text;
  else return undefined;
  const text = pageTextOf(html);
  if (text.noindex) return undefined;
  return {
    url: meta.url,
    title: text.title,
    description: text.description,
    headings: text.headings,
    body: text.body,
  };
}
