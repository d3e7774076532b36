/*
 * Scripts evaluated inside the rendered page. They are plain strings because the service is
 * compiled without the DOM library: nothing else here runs in a browser.
 */

/** Full height of the document in CSS pixels. */
export const DOCUMENT_HEIGHT = `Math.max(
  document.documentElement ? document.documentElement.scrollHeight : 0,
  document.body ? document.body.scrollHeight : 0
)`;

/**
 * The document serialized as text, doctype included. Charset declarations are rewritten to
 * utf-8 first, since the DOM is saved as UTF-8 whatever the page was served in (a Shift_JIS
 * declaration would otherwise mislabel the file). One evaluation instead of two round trips.
 */
export const SERIALIZE_DOM = `(() => {
  for (const meta of document.querySelectorAll('meta[charset]')) meta.setAttribute('charset', 'utf-8');
  for (const meta of document.querySelectorAll('meta[http-equiv]')) {
    if ((meta.getAttribute('http-equiv') || '').toLowerCase() === 'content-type') {
      meta.setAttribute('content', 'text/html; charset=utf-8');
    }
  }
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  return doctype + (document.documentElement ? document.documentElement.outerHTML : '');
})()`;
