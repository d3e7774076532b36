/**
 * JSONP answers of the site search API (docs/reference/site-search.md, JSONP): `callback(<json>)`
 * served as JavaScript with `X-Content-Type-Options: nosniff`.
 */

export const JSONP_CONTENT_TYPE = 'application/javascript; charset=utf-8';

const MAX_CALLBACK_LENGTH = 128;
const CALLBACK_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

/** A JavaScript identifier path (`jQuery123_456`, `app.search.done`); nothing that can run code. */
export function isCallbackName(value: string): boolean {
  return value.length <= MAX_CALLBACK_LENGTH && CALLBACK_NAME.test(value);
}

/**
 * The JSONP body. The leading comment keeps the first bytes from being a name that a plugin could
 * sniff as another format (the Rosetta Flash attack). U+2028 and U+2029 are line terminators in
 * older JavaScript though valid in JSON, and an escaped `<` keeps `</script>` in the data from
 * closing an inline script element.
 */
export function jsonpBody(callback: string, payload: unknown): string {
  // The parameter parsers already refuse bad names; this guards any other caller.
  if (!isCallbackName(callback)) throw new Error('invalid JSONP callback name');
  const json = (JSON.stringify(payload) ?? 'null')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
    .replace(/</g, '\\u003c');
  return `/**/${callback}(${json});`;
}
