/**
 * Builds what Kumo serves to browsers (docs/reference/widget.md, Build): the widget script and the
 * typed client, bundled by esbuild from src/widget and src/client into dist/web, the client's
 * declaration file, and a manifest of content hashes the server answers ETags and the immutable
 * path with. Runs after `tsc` in `npm run build`; nothing is fetched from the network.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  DrillDownInfoSchema,
  HighlightPartSchema,
  RelatedKeywordsResponseSchema,
  SearchResponseSchema,
  SuggestResponseSchema,
} from '../src/api/schemas/site-search-schemas.js';
import { declarationsOf } from './schema-declarations.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = `${ROOT}dist/web/`;
const DECLARATIONS = `${ROOT}dist/web-types/src/client/`;
/** Browsers of the last few years; the widget uses nothing newer than these support. */
const BROWSER_TARGETS = ['chrome90', 'edge90', 'firefox90', 'safari15'];

export const WIDGET_FILE = 'kumo-search.js';
export const CLIENT_FILE = 'kumo-search-client.js';
export const CLIENT_TYPES_FILE = 'kumo-search-client.d.ts';
/** The management console (docs/console.md): its script and the stylesheet esbuild splits off. */
export const CONSOLE_FILE = 'console.js';
export const CONSOLE_STYLES_FILE = 'console.css';

async function bundle(
  entry: string,
  outfile: string,
  format: 'iife' | 'esm',
  minify: boolean,
): Promise<void> {
  await build({
    entryPoints: [`${ROOT}${entry}`],
    outfile: `${OUT}${outfile}`,
    bundle: true,
    format,
    minify,
    target: BROWSER_TARGETS,
    charset: 'utf8',
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
}

/** The client's declarations in one file: the answers from the schemas, then the client's own. */
function clientDeclarations(): string {
  const answers = declarationsOf([
    { name: 'HighlightPart', schema: HighlightPartSchema, description: 'A piece of a highlighted text.' },
    {
      name: 'FacetDrillDown',
      schema: DrillDownInfoSchema,
      description: 'A level of a drill-down hierarchy.',
    },
    { name: 'SearchResponse', schema: SearchResponseSchema, description: 'The answer of search.' },
    { name: 'SuggestResponse', schema: SuggestResponseSchema, description: 'The answer of suggest.' },
    {
      name: 'RelatedKeywordsResponse',
      schema: RelatedKeywordsResponseSchema,
      description: 'The answer of related_keywords.',
    },
  ]);
  const own = ['site-search-error.d.ts', 'site-search-client.d.ts'].map((file) =>
    readFileSync(`${DECLARATIONS}${file}`, 'utf8')
      .split('\n')
      .filter(
        (line) => !line.startsWith('import ') && !line.startsWith('export declare function kindOfStatus'),
      )
      .join('\n'),
  );
  const aliases = [
    "export type OrganicDoc = SearchResponse['organic']['docs'][number];",
    "export type FacetDrillDownRoot = SearchResponse['facet_drilldown_roots'][number];",
    "export type SortField = 'score' | 'last_modified' | 'title' | 'click';",
    "export type DoctypeFilter = 'all' | 'html' | 'pdf' | 'doc' | 'xls' | 'ppt';",
  ];
  return [
    '/** Types of the Kumo site search client, generated from the schemas of the server. */',
    answers,
    aliases.join('\n'),
    ...own,
  ].join('\n');
}

interface ManifestEntry {
  sha256: string;
  bytes: number;
  gzipBytes: number;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await bundle('src/widget/main.ts', WIDGET_FILE, 'iife', true);
  await bundle('src/client/index.ts', CLIENT_FILE, 'esm', false);
  writeFileSync(`${OUT}${CLIENT_TYPES_FILE}`, clientDeclarations());
  await bundle('src/console/main.tsx', CONSOLE_FILE, 'iife', true);
  const manifest: Record<string, ManifestEntry> = {};
  for (const file of [WIDGET_FILE, CLIENT_FILE, CLIENT_TYPES_FILE, CONSOLE_FILE, CONSOLE_STYLES_FILE]) {
    const bytes = readFileSync(`${OUT}${file}`);
    manifest[file] = {
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
    };
  }
  writeFileSync(`${OUT}manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  const widget = manifest[WIDGET_FILE]!;
  console.log(`web: ${WIDGET_FILE} ${widget.bytes} bytes, ${widget.gzipBytes} gzipped`);
  const consoleScript = manifest[CONSOLE_FILE]!;
  console.log(`web: ${CONSOLE_FILE} ${consoleScript.bytes} bytes, ${consoleScript.gzipBytes} gzipped`);
}

await main();
