import { TextDecoder } from 'node:util';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/**
 * Decodes an HTML body the way browsers do (WHATWG encoding sniffing: BOM, then the
 * Content-Type charset, then a `<meta>` prescan), so Shift_JIS and EUC-JP pages read correctly.
 * Node's full ICU TextDecoder covers the legacy Japanese encodings.
 */
export function decodeHtml(
  body: Uint8Array,
  contentType: string | undefined,
): { text: string; charset: string } {
  const declared = charsetParameter(contentType);
  let charset = sniffHtmlEncoding(body, { transportLayerEncodingLabel: declared, defaultEncoding: 'UTF-8' });
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    charset = 'UTF-8';
    decoder = new TextDecoder('utf-8');
  }
  return { text: decoder.decode(body), charset };
}

/** Decodes a text body that is not HTML (robots.txt): BOM or declared charset, else UTF-8. */
export function decodeText(body: Uint8Array, contentType: string | undefined): string {
  const declared = charsetParameter(contentType);
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function charsetParameter(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1];
}
