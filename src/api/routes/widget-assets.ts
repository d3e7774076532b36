import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

/** Where browsers fetch the widget and the typed client (docs/reference/widget.md, Caching and the
 * two paths).
 */
export const WIDGET_BASE_PATH = '/widget/v1';
/** The widget script; its contract path is what site owners paste into their pages. */
export const WIDGET_SCRIPT = 'kumo-search.js';
const MANIFEST_FILE = 'manifest.json';
/** Hex digits of the sha256 in a file's immutable name (`kumo-search.<16 hex>.js`). */
const HASH_DIGITS = 16;

/** How a file's bytes are sent: as built, or compressed. */
export type AssetEncoding = 'br' | 'gzip' | 'identity';

/** A built file as served: its bytes (compressed on demand) and what its headers say. */
export interface WebAsset {
  /** Name under /widget/v1/ at the contract path (`kumo-search.js`). */
  name: string;
  /** Name under /widget/v1/ at the content-addressed path (`kumo-search.0123456789abcdef.js`). */
  immutableName: string;
  sha256: string;
  contentType: string;
  /** The file's bytes in an encoding (encodedBodies). */
  body(encoding: AssetEncoding): Promise<Buffer>;
  /** A module's declaration file at the contract and the immutable path, when the build has one. */
  types?: { name: string; immutableName: string };
}

/** The build in dist/web, read once when the service starts. */
export interface WebAssets {
  /** A file by its name at either path, with which path was asked for. */
  lookup(name: string): { asset: WebAsset; immutable: boolean } | undefined;
  /** The immutable path of the widget script, for the hosted page. */
  widgetPath(): string;
}

/** Why the build cannot be served; the widget paths answer 503 with this (docs/operations.md). */
export interface WebAssetsProblem {
  problem: string;
}

export type WebAssetsLoad = WebAssets | WebAssetsProblem;

export function isWebAssetsProblem(load: WebAssetsLoad): load is WebAssetsProblem {
  return 'problem' in load;
}

interface ManifestEntry {
  sha256: string;
  bytes: number;
  gzipBytes: number;
}

const CONTENT_TYPES: readonly [suffix: string, type: string][] = [
  ['.d.ts', 'application/typescript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.json', 'application/json; charset=utf-8'],
];

/**
 * Reads the build that `npm run build` writes to dist/web (docs/design/browser-side.md, Browser
 * side): every file its manifest.json lists, checked against the manifest's sha256, each compressed
 * with brotli and gzip once, by the first request that takes it (encodedBodies). The served
 * manifest adds each file's immutable path and its Subresource Integrity value, so an owner can pin
 * a version. A missing or inconsistent build is a problem naming it, never an exception: the rest
 * of the service runs without it.
 */
export function loadWebAssets(folder: URL): WebAssetsLoad {
  const manifestUrl = new URL(MANIFEST_FILE, folder);
  let manifest: Record<string, ManifestEntry>;
  try {
    manifest = JSON.parse(readFileSync(manifestUrl, 'utf8')) as Record<string, ManifestEntry>;
  } catch (error) {
    return {
      problem: `the widget build is missing or unreadable (dist/web/${MANIFEST_FILE}: ${reasonOf(error)})`,
    };
  }
  const assets = new Map<string, WebAsset>();
  const served: Record<string, ManifestEntry & { path: string; integrity: string }> = {};
  for (const [name, entry] of Object.entries(manifest)) {
    const contentType = contentTypeOf(name);
    if (contentType === undefined || typeof entry?.sha256 !== 'string') {
      return {
        problem: `the widget build's ${MANIFEST_FILE} lists an unexpected entry "${name}"; rebuild it`,
      };
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(new URL(name, folder));
    } catch (error) {
      return { problem: `the widget build is incomplete (dist/web/${name}: ${reasonOf(error)})` };
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (sha256 !== entry.sha256) {
      return {
        problem: `dist/web/${name} does not match the sha256 in dist/web/${MANIFEST_FILE}; rebuild it`,
      };
    }
    const asset: WebAsset = {
      name,
      immutableName: immutableNameOf(name, sha256),
      sha256,
      contentType,
      body: encodedBodies(bytes),
    };
    assets.set(name, asset);
    // The console's files are served under /console/assets, not listed for site owners.
    if (isConsoleFile(name)) continue;
    served[name] = {
      ...entry,
      path: `${WIDGET_BASE_PATH}/${asset.immutableName}`,
      integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
    };
  }
  for (const asset of assets.values()) {
    const types = assets.get(asset.name.replace(/\.js$/, '.d.ts'));
    if (asset.name.endsWith('.js') && types !== undefined) {
      asset.types = { name: types.name, immutableName: types.immutableName };
    }
  }
  const widget = assets.get(WIDGET_SCRIPT);
  if (widget === undefined) {
    return { problem: `the widget build's ${MANIFEST_FILE} does not list ${WIDGET_SCRIPT}; rebuild it` };
  }
  const manifestBytes = Buffer.from(`${JSON.stringify(served, null, 2)}\n`);
  const manifestSha = createHash('sha256').update(manifestBytes).digest('hex');
  const manifestAsset: WebAsset = {
    name: MANIFEST_FILE,
    immutableName: MANIFEST_FILE,
    sha256: manifestSha,
    contentType: contentTypeOf(MANIFEST_FILE)!,
    body: encodedBodies(manifestBytes),
  };
  const byImmutableName = new Map([...assets.values()].map((asset) => [asset.immutableName, asset]));
  return {
    lookup(name) {
      if (name === MANIFEST_FILE) return { asset: manifestAsset, immutable: false };
      const contract = assets.get(name);
      if (contract !== undefined) return { asset: contract, immutable: false };
      const pinned = byImmutableName.get(name);
      return pinned === undefined ? undefined : { asset: pinned, immutable: true };
    },
    widgetPath: () => `${WIDGET_BASE_PATH}/${widget.immutableName}`,
  };
}

/** The management console's script and stylesheet (docs/console.md), in the same build. */
export function isConsoleFile(name: string): boolean {
  return name.startsWith('console.');
}

/** `kumo-search.js` → `kumo-search.<16 hex>.js`; `x.d.ts` → `x.<16 hex>.d.ts`. */
function immutableNameOf(name: string, sha256: string): string {
  const suffix = name.endsWith('.d.ts') ? '.d.ts' : name.slice(name.lastIndexOf('.'));
  return `${name.slice(0, -suffix.length)}.${sha256.slice(0, HASH_DIGITS)}${suffix}`;
}

function contentTypeOf(name: string): string | undefined {
  return CONTENT_TYPES.find(([suffix]) => name.endsWith(suffix))?.[1];
}

const brotliCompressAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A file's bytes as built, and compressed the first time a request takes an encoding, then kept:
 * compressing the whole build takes a quarter of a second and a few MB of memory that a service
 * whose widget and console nobody loads never needs (docs/operations.md, Memory). Off the
 * event loop, so the first request for the console's script does not hold up the others.
 */
function encodedBodies(bytes: Buffer): WebAsset['body'] {
  const compressed = new Map<AssetEncoding, Promise<Buffer>>();
  return (encoding) => {
    if (encoding === 'identity') return Promise.resolve(bytes);
    let body = compressed.get(encoding);
    if (body === undefined) {
      body = compress(bytes, encoding);
      compressed.set(encoding, body);
      // A failure is not kept: the next request tries again.
      body.catch(() => compressed.delete(encoding));
    }
    return body;
  };
}

/** Brotli at its best quality for text, gzip at level 9: each file is compressed once. */
function compress(bytes: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(bytes, { level: 9 });
  return brotliCompressAsync(bytes, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'not found; run npm run build';
  return error instanceof Error ? error.message : String(error);
}
