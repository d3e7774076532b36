import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { extract } from 'tar-stream';
import { END_OF_ARCHIVE, encodeTarFiles } from '../../src/artifacts/tar-entries.js';

async function listEntries(archive: Buffer): Promise<Map<string, Buffer>> {
  const entries = new Map<string, Buffer>();
  const extractor = extract();
  const done = new Promise<void>((resolve, reject) => {
    extractor.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    extractor.on('finish', resolve);
    extractor.on('error', reject);
  });
  Readable.from([archive]).pipe(extractor);
  await done;
  return entries;
}

describe('tar entries written page by page', () => {
  const longName = `https/example.com/${'segment/'.repeat(20)}page.html-/%3Fq%3D%E6%97%A5-/source.html`;
  const files = [
    {
      name: 'https/example.com/-/-/source.html',
      data: Buffer.from('<title>root</title>'),
      mtimeSeconds: 1_790_000_000,
    },
    { name: 'https/example.com/-/-/meta.json', data: Buffer.from('{"a":1}'), mtimeSeconds: 1_790_000_000 },
    { name: longName, data: Buffer.alloc(1000, 'x'), mtimeSeconds: 1_790_000_000 },
  ];

  it('reads back with a tar library, long names included', async () => {
    const archive = Buffer.concat([encodeTarFiles(files), END_OF_ARCHIVE]);
    const entries = await listEntries(archive);
    assert.deepEqual(
      [...entries.keys()],
      files.map((file) => file.name),
    );
    assert.equal(entries.get(longName)?.length, 1000);
    assert.equal(entries.get('https/example.com/-/-/meta.json')?.toString(), '{"a":1}');
  });

  it('concatenated gzip members form one valid tar.gz for the system tar', async (t) => {
    const members = [
      gzipSync(encodeTarFiles(files.slice(0, 2))),
      gzipSync(encodeTarFiles(files.slice(2))),
      gzipSync(END_OF_ARCHIVE),
    ];
    const bundle = Buffer.concat(members);
    const entries = await listEntries(gunzipSync(bundle));
    assert.equal(entries.size, 3);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'kumo-tar-'));
    t.after(() => rmSync(folder, { recursive: true, force: true }));
    const file = path.join(folder, 'bundle.tar.gz');
    writeFileSync(file, bundle);
    const listing = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(
      listing,
      files.map((entry) => entry.name),
    );
    execFileSync('tar', ['xzf', file, '-C', folder]);
    assert.equal(
      readFileSync(path.join(folder, 'https/example.com/-/-/source.html'), 'utf8'),
      '<title>root</title>',
    );
  });
});
