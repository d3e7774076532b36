/**
 * The HTML of the hosted search page (docs/reference/widget.md, Hosted search page): a product page
 * with the search service's name in its header, the widget in page layout and a footer. Every value
 * from a setting or the request is escaped; the page runs no script but the widget's, loaded from
 * its immutable path, and its stylesheet carries the response's CSP nonce.
 */

export type PageLanguage = 'en' | 'ja';

const TEXTS = {
  en: {
    heading: 'Search',
    title: (name: string) => `Search – ${name}`,
    noscript: 'This search page needs JavaScript. Turn it on in your browser to search this site.',
    footer: 'Search by Kumo',
    notFoundTitle: 'Search page not found',
    notFound: 'There is no search at this address. Check the link you followed.',
    invalidTitle: 'This search address is not valid',
    unavailableTitle: 'Search is unavailable',
    unavailable: 'Search is unavailable at the moment. Please try again later.',
  },
  ja: {
    heading: '検索',
    title: (name: string) => `検索 – ${name}`,
    noscript: 'この検索ページを使うには、ブラウザーで JavaScript を有効にしてください。',
    footer: 'Search by Kumo',
    notFoundTitle: '検索ページが見つかりません',
    notFound: 'このアドレスには検索ページがありません。リンクをご確認ください。',
    invalidTitle: 'この検索アドレスは正しくありません',
    unavailableTitle: '検索を利用できません',
    unavailable: '現在、検索を利用できません。しばらくしてからもう一度お試しください。',
  },
} as const;

/**
 * The page's own stylesheet: a header bar, a centred column the widget fills, a footer. Sizes in
 * rem/px of the page (the widget sizes itself); the column shrinks to a 360 px phone with 16 px
 * margins. The widget is themed through its custom properties (docs/reference/widget.md, Theming).
 */
const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#f6f7f9;color:#1f2328;
font:16px/1.6 system-ui,-apple-system,"Segoe UI","Hiragino Sans","Hiragino Kaku Gothic ProN","Noto Sans JP",Meiryo,sans-serif}
.site-header{background:#fff;border-bottom:1px solid #d8dee4}
.site-header .bar{max-width:1120px;margin:0 auto;padding:14px 24px;display:flex;align-items:center;gap:12px}
.service-name{font-weight:700;font-size:1.125rem;color:#1f2328;overflow-wrap:anywhere}
.page{flex:1;width:100%;max-width:1120px;margin:0 auto;padding:24px 24px 48px}
.page h1{margin:0 0 16px;font-size:1.75rem;line-height:1.25;font-weight:700;letter-spacing:.01em}
#kumo-search{display:block;min-height:56px;background:#fff;border:1px solid #d8dee4;border-radius:12px;padding:20px;
--kumo-accent:#0b57d0;--kumo-text:#1f2328;--kumo-muted:#59636e;--kumo-background:#fff;--kumo-surface:#f6f7f9;
--kumo-border:#d0d7de;--kumo-mark:#fff3b0;--kumo-radius:8px;--kumo-font-size:16px}
.notice{margin:16px 0 0;padding:12px 16px;border:1px solid #d4a72c;border-radius:8px;background:#fff8c5}
.message{background:#fff;border:1px solid #d8dee4;border-radius:12px;padding:24px}
.message h2{margin:0 0 8px;font-size:1.25rem}
.message p{margin:0}
.message .detail{margin-top:8px;color:#59636e;font-size:.875rem;overflow-wrap:anywhere}
.site-footer{border-top:1px solid #d8dee4;background:#fff;color:#59636e;font-size:.875rem}
.site-footer p{max-width:1120px;margin:0 auto;padding:16px 24px}
@media (max-width:600px){
.site-header .bar{padding:12px 16px}
.page{padding:16px 16px 32px}
.page h1{font-size:1.375rem;margin-bottom:12px}
#kumo-search{padding:12px;border-radius:10px}
.site-footer p{padding:14px 16px}
}
`
  .trim()
  .replace(/\n/g, '');

/**
 * The hosted page's Content-Security-Policy: only Kumo's own origin, the stylesheet by nonce. It
 * may be framed by its own origin and by the console's when the console is reached at another
 * one, for its Try it (docs/operations.md, Roles).
 */
export function pageCsp(nonce: string, consoleOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "connect-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'self'",
    consoleOrigin === undefined ? "frame-ancestors 'self'" : `frame-ancestors 'self' ${consoleOrigin}`,
  ].join('; ');
}

export interface SearchPageInput {
  lang: PageLanguage;
  nonce: string;
  serviceName: string;
  /** `contract/group/service`. */
  service: string;
  /** The immutable path of the widget script. */
  widgetPath: string;
  /** The site search API base the widget calls (root-relative). */
  apiBase: string;
}

/** The search page: header, "Search" heading, the widget's mount point, footer. */
export function searchPageHtml(input: SearchPageInput): string {
  const texts = TEXTS[input.lang];
  const name = escapeHtml(input.serviceName);
  const script =
    `<script src="${escapeHtml(input.widgetPath)}" data-service="${escapeHtml(input.service)}"` +
    ` data-api="${escapeHtml(input.apiBase)}" data-layout="page" data-param-prefix=""` +
    ` data-lang="${input.lang}" nonce="${input.nonce}" defer></script>`;
  const body = [
    `<h1>${escapeHtml(texts.heading)}</h1>`,
    '<div id="kumo-search"></div>',
    `<noscript><p class="notice">${escapeHtml(texts.noscript)}</p></noscript>`,
  ].join('\n');
  return documentHtml(
    input.lang,
    input.nonce,
    escapeHtml(texts.title(input.serviceName)),
    name,
    body,
    script,
  );
}

export type MessageKind = 'not_found' | 'invalid' | 'unavailable';

/** A page in the same frame for a request the search page cannot answer (404, 400, 503). */
export function messagePageHtml(
  lang: PageLanguage,
  nonce: string,
  kind: MessageKind,
  detail: string,
): string {
  const texts = TEXTS[lang];
  const [title, lead] =
    kind === 'not_found'
      ? [texts.notFoundTitle, texts.notFound]
      : kind === 'invalid'
        ? [texts.invalidTitle, '']
        : [texts.unavailableTitle, texts.unavailable];
  const body = [
    '<section class="message" role="alert">',
    `<h2>${escapeHtml(title)}</h2>`,
    lead === '' ? '' : `<p>${escapeHtml(lead)}</p>`,
    `<p class="detail">${escapeHtml(detail)}</p>`,
    '</section>',
  ]
    .filter((line) => line !== '')
    .join('\n');
  return documentHtml(lang, nonce, escapeHtml(title), escapeHtml(texts.heading), body, '');
}

function documentHtml(
  lang: PageLanguage,
  nonce: string,
  title: string,
  headerName: string,
  main: string,
  script: string,
): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, follow">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${title}</title>
<style nonce="${nonce}">${PAGE_CSS}</style>
${script}
</head>
<body>
<header class="site-header"><div class="bar"><span class="service-name">${headerName}</span></div></header>
<main class="page">
${main}
</main>
<footer class="site-footer"><p>${escapeHtml(TEXTS[lang].footer)}</p></footer>
</body>
</html>
`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}
