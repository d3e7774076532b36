/**
 * The local site the bench's search services are indexed from, on 127.0.0.1: the victim's pages
 * (ordinary short URLs with a word its probes search for), the attacker's pages under paths of
 * thousands of characters, and a page whose links are such URLs (what an attacker's crawl meets).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

/** The word every page of the victim's site holds, which its probes search for. */
export const VICTIM_WORD = 'harbor';

export const VICTIM_START = '/victim/';
export const ATTACKER_START = '/attacker/';
export const LONG_LINKS_PAGE = '/long-links/';

const VICTIM_PAGES = 12;

/**
 * A path of `length` characters of x and 0 in a seeded order: the alphabet of the attack
 * patterns (`[x0]*x[x0]{600}[x0]{590}q`), which match none of them (no q) only after trying
 * every x as the start of the counted run.
 */
export function longPath(seed: number, length: number): string {
  let state = (Math.imul(seed, 2_654_435_761) + 1) >>> 0;
  let path = '/';
  while (path.length < length) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    path += state & 0x10000 ? 'x' : '0';
  }
  return path;
}

export interface AttackSite {
  url: string;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/**
 * Starts the site: `attackerPages` pages under paths of `pathLength` characters linked from
 * ATTACKER_START, and `longLinks` links of `pathLength` characters on LONG_LINKS_PAGE.
 */
export async function startAttackSite(options: {
  attackerPages: number;
  longLinks: number;
  pathLength: number;
}): Promise<AttackSite> {
  const attackerPaths = Array.from({ length: options.attackerPages }, (_, index) =>
    longPath(index + 1, options.pathLength),
  );
  const known = new Set(attackerPaths);
  const longLinks = Array.from({ length: options.longLinks }, (_, index) =>
    longPath(100_000 + index, options.pathLength),
  );
  const links = (paths: readonly string[]) =>
    paths.map((path, i) => `<a href="${path}">page ${i}</a>`).join(' ');
  const victimPaths = Array.from({ length: VICTIM_PAGES }, (_, index) => `/victim/page-${index}.html`);

  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    const send = (status: number, html: string) =>
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (path === VICTIM_START) return send(200, page('Victim site', links(victimPaths)));
    const victimIndex = victimPaths.indexOf(path);
    if (victimIndex >= 0)
      return send(
        200,
        page(
          `Page ${victimIndex} of the ${VICTIM_WORD}`,
          `<h1>The ${VICTIM_WORD} guide, part ${victimIndex}</h1><p>Ships reach the ${VICTIM_WORD} at dawn; ` +
            `the pier ${victimIndex} takes freight and passengers alike.</p>`,
        ),
      );
    if (path === ATTACKER_START) return send(200, page('Attacker site', links(attackerPaths)));
    if (known.has(path)) return send(200, page('A page under a long path', '<p>nothing to see</p>'));
    if (path === LONG_LINKS_PAGE) return send(200, page('Long links', links(longLinks)));
    return send(404, page('Not found', ''));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
