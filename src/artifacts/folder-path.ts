/**
 * The folder of a crawled URL inside crawl_objects.tar.gz (docs/reference/artifacts.md, Folder
 * rules): `<scheme>/<host>/<path>-/<encoded_query_fragment>-/`.
 *
 * - The host keeps a non-default port (`127.0.0.1:8080`): two sites on one host stay apart.
 * - The path is written as the URL carries it (percent-encoded), so a decoded `%2F` can never add
 *   a folder level. A `.` or `..` segment (which the URL parser normally resolves away) is written
 *   as `%2E` / `%2E%2E` so that no entry can escape the archive root.
 */
export function objectFolderOf(url: URL): string {
  const scheme = url.protocol.slice(0, -1);
  const path = url.pathname
    .slice(1)
    .split('/')
    .map((segment) => (segment === '.' ? '%2E' : segment === '..' ? '%2E%2E' : segment))
    .join('/');
  const queryAndFragment = encodeURIComponent(`${url.search}${url.hash}`);
  return `${scheme}/${url.host}/${path}-/${queryAndFragment}-/`;
}
