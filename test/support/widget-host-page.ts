/**
 * A customer's site on a second loopback origin (127.0.0.2) whose pages embed the widget with the
 * snippet of docs/reference/widget.md, in the variants the tests need: plain, hostile CSS, a
 * strict CSP that keeps fetch away from Kumo (so the widget falls back to JSONP), two widgets for
 * two services, a Japanese page and a page of a service that refuses this origin.
 */
import { createServer } from 'node:http';
import { listenLocally, type LocalServer } from './local-server.js';
import type { WidgetSite } from './widget-site.js';

export type HostPageVariant = 'plain' | 'aggressive' | 'csp' | 'two' | 'ja' | 'refused';

/** A page a test file adds to the host site: its HTML (usually `pageHtml`) and extra headers. */
export type ExtraHostPage = (site: WidgetSite) => { html: string; headers?: Record<string, string> };

export interface HostSite {
  /** `http://127.0.0.2:<port>` */
  origin: string;
  /** The address of a page (a variant or an extra page), with an optional query string (`kumo_q=tomato`). */
  url(variant: string, query?: string): string;
  close(): Promise<void>;
}

/** The snippet customers paste (docs/reference/widget.md), with further attributes when given. */
export function snippet(kumoUrl: string, service: string, attributes = ''): string {
  return `<script src="${kumoUrl}/widget/v1/kumo-search.js" data-service="${service}"${attributes} defer></script>`;
}

/** CSS a careless theme might ship: it must not break the widget. */
export const AGGRESSIVE_CSS =
  '* { all: unset !important; } html { font-size: 40px; } body { font: 60px serif; } ' +
  'input, button, a, li, ol { display: inline; font-size: 60px !important; } mark { background: red; }';

/** A host page: `<html lang>`, a title, extra `<head>` markup and the `<main>` content. */
export function pageHtml(lang: string, title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}</head>
<body>
<header><h1>${title}</h1><p>A customer's page with the Kumo search widget.</p></header>
<main>
${body}
</main>
</body>
</html>`;
}

function variantPage(
  site: WidgetSite,
  variant: HostPageVariant,
): { html: string; headers: Record<string, string> } {
  const { kumoUrl, services } = site;
  const box = `<div id="kumo-search"></div>\n${snippet(kumoUrl, services.main)}`;
  switch (variant) {
    case 'plain':
      return { html: pageHtml('en', 'Garden club', '', box), headers: {} };
    case 'ja':
      return { html: pageHtml('ja', '園芸クラブ', '', box), headers: {} };
    case 'aggressive':
      return { html: pageHtml('en', 'Loud theme', `<style>${AGGRESSIVE_CSS}</style>`, box), headers: {} };
    case 'refused':
      return {
        html: pageHtml(
          'en',
          'Not on the list',
          '',
          `<div id="kumo-search"></div>\n${snippet(kumoUrl, services.refused)}`,
        ),
        headers: {},
      };
    case 'two':
      // The snippet pasted twice: the second script finds #kumo-search taken and mounts right after
      // itself, and keeps its state under the next free URL prefix.
      return {
        html: pageHtml(
          'en',
          'Garden and bakery',
          '',
          `<section id="garden">${box}</section>\n<section id="bakery">${snippet(kumoUrl, services.bakery)}</section>`,
        ),
        headers: {},
      };
    case 'csp':
      return {
        html: pageHtml('en', 'Strict policy', '', box),
        headers: {
          // Scripts may come from Kumo, connections may not: fetch fails and JSONP must carry the calls.
          'content-security-policy':
            `default-src 'none'; script-src 'self' ${kumoUrl}; connect-src 'self'; ` +
            `img-src 'self' ${kumoUrl}; style-src 'self'; base-uri 'none'`,
        },
      };
  }
}

/** Serves `/<variant>.html` and `/<extra page name>.html` on 127.0.0.2; other paths are 404. */
export async function startHostSite(
  site: WidgetSite,
  extraPages: Readonly<Record<string, ExtraHostPage>> = {},
): Promise<HostSite> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host.invalid').pathname;
    const match = /^\/([a-z0-9-]+)\.html$/.exec(path);
    const name = match?.[1];
    const variants: readonly string[] = ['plain', 'aggressive', 'csp', 'two', 'ja', 'refused'];
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const extra = name === undefined ? undefined : extraPages[name];
    if (name === undefined || (!variants.includes(name) && extra === undefined)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const { html, headers = {} } =
      extra === undefined ? variantPage(site, name as HostPageVariant) : extra(site);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    });
    response.end(html);
  });
  const local: LocalServer = await listenLocally(server, '127.0.0.2');
  return {
    origin: local.baseUrl,
    url: (variant, query) => `${local.baseUrl}/${variant}.html${query === undefined ? '' : `?${query}`}`,
    close: () => local.close(),
  };
}
