import { createHash } from 'node:crypto';

/**
 * The folder of a crawled URL inside crawl_objects.tar.gz (docs/reference/artifacts.md, Folder
 * rules): `<scheme>/<host>/<path>-/<encoded_query_fragment>-/`, with the few escapes that keep
 * the rule injective (two URLs never share a folder), prefix-free (no page's file is another
 * page's folder) and extractable (each name at most 255 bytes, the whole folder at most
 * MAX_FOLDER_BYTES). Ordinary URLs get the plain rule unchanged.
 *
 * - The host keeps a non-default port (`127.0.0.1:8080`): two sites on one host stay apart.
 * - The path is written as the URL carries it (percent-encoded), so a decoded `%2F` can never add
 *   a folder level. A `.` or `..` segment (which the URL parser normally resolves away) is written
 *   as `%2E` / `%2E%2E` so that no entry can escape the archive root.
 * - Only the last path segment and the query part end in `-`: an inner segment that is empty or
 *   ends in `-` gets `{}` appended, so `/p-/-/source.html/x` cannot open a folder inside the
 *   folder of `/p`. The URL parser percent-encodes `{` and `}` in a path, so no real segment
 *   ends in `{}`.
 */
export function objectFolderOf(url: URL): string {
  const scheme = url.protocol.slice(0, -1);
  const segments = encodePathChars(url.pathname.slice(1))
    .split('/')
    .map((segment) => (segment === '.' ? '%2E' : segment === '..' ? '%2E%2E' : segment));
  const last = segments.pop() ?? '';
  const inner = segments.map((segment) => shortened(innerSegment(segment)));
  const head = `${scheme}/${shortened(url.host)}/`;
  const tail = `${shortened(last)}-/${shortened(encodeURIComponent(`${url.search}${url.hash}`))}-/`;
  const folder = `${head}${inner.map((segment) => `${segment}/`).join('')}${tail}`;
  if (Buffer.byteLength(folder) <= MAX_FOLDER_BYTES) return folder;
  return foldedFolder(head, inner, `${url.pathname}${url.search}${url.hash}`);
}

/**
 * Longest folder name: with the longest file name (`source.` and an 8-letter extension) an entry
 * has at most 915 bytes, which leaves room for the folder it is extracted into within the 1,024
 * bytes of PATH_MAX on macOS (4,096 on Linux). Tar itself takes any length (a PAX header carries
 * names over 100 bytes, tar-entries.ts).
 */
export const MAX_FOLDER_BYTES = 900;
/** A name longer than this is cut to it and given a hash suffix; 200 + 18 + the `-` stays under 255. */
export const MAX_NAME_BYTES = 200;
const HASH_HEX_DIGITS = 16;

/** Characters the URL parser percent-encodes in a path; a URL-like value that bypassed it gets the same. */
const NON_PATH_CHARS = /[\u0000-\u0020"#<>?`{}\\\u007f-\u{10ffff}]/gu;

function encodePathChars(path: string): string {
  return path.replace(NON_PATH_CHARS, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}

/** An inner segment never ends in `-` and is never empty (an empty name would vanish in `a//b`). */
function innerSegment(segment: string): string {
  return segment === '' || segment.endsWith('-') ? `${segment}{}` : segment;
}

/**
 * A name longer than MAX_NAME_BYTES: its first MAX_NAME_BYTES bytes, then `{` + the first 16 hex
 * digits of its SHA-256 + `}`. Such a name is longer than any name left whole, so the two never
 * meet.
 */
function shortened(name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length <= MAX_NAME_BYTES) return name;
  let end = MAX_NAME_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // never cut inside a UTF-8 sequence
  return `${bytes.subarray(0, end).toString('utf8')}{${hashOf(name)}}`;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, HASH_HEX_DIGITS);
}

/**
 * A folder longer than MAX_FOLDER_BYTES keeps the inner segments that fit, then `{<hash>}-/-/`,
 * the hash of the URL's whole path, query and fragment. No real or shortened last segment is
 * `{<16 hex digits>}`, so a folded folder never equals another URL's folder.
 */
function foldedFolder(head: string, inner: readonly string[], rest: string): string {
  const tail = `{${hashOf(rest)}}-/-/`;
  let folder = head;
  for (const segment of inner) {
    const next = `${folder}${segment}/`;
    if (Buffer.byteLength(next) + tail.length > MAX_FOLDER_BYTES) break;
    folder = next;
  }
  return `${folder}${tail}`;
}
