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
 * Settles after two animation frames, by when the compositor has drawn the page, or after
 * 200 ms when frames do not come (a tab the browser treats as hidden).
 */
export const NEXT_FRAMES = `new Promise((resolve) => {
  setTimeout(resolve, 200);
  requestAnimationFrame(() => requestAnimationFrame(resolve));
})`;

/**
 * The document serialized as text, doctype included, and the address it now shows (a script may
 * have moved it with history.pushState; its relative links are meant for that address). Charset
 * declarations are rewritten to utf-8 first, since the DOM is saved as UTF-8 whatever the page
 * was served in (a Shift_JIS declaration would otherwise mislabel the file).
 */
export const SERIALIZE_DOM = `(() => {
  for (const meta of document.querySelectorAll('meta[charset]')) meta.setAttribute('charset', 'utf-8');
  for (const meta of document.querySelectorAll('meta[http-equiv]')) {
    if ((meta.getAttribute('http-equiv') || '').toLowerCase() === 'content-type') {
      meta.setAttribute('content', 'text/html; charset=utf-8');
    }
  }
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  const html = doctype + (document.documentElement ? document.documentElement.outerHTML : '');
  return { html, location: location.href };
})()`;

/**
 * Run in every frame before the page's own scripts (an init script of the run's context): takes
 * WebRTC away, whose STUN and TURN connections would leave the browser beside the request
 * interceptor. Chromium is also started with UDP for WebRTC off and the run's TCP tunnels go
 * through the egress gate (egress-gate.ts); this is the layer that leaves a page nothing to try.
 * Workers have no RTCPeerConnection. See docs/security.md, Rendered pages.
 */
export const DISABLE_WEBRTC = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCDataChannel']) {
    try { delete globalThis[name]; } catch {}
  }
})()`;
