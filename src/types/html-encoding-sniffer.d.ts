declare module 'html-encoding-sniffer' {
  /** WHATWG encoding sniffing; returns an encoding name such as "Shift_JIS". */
  export default function sniffHtmlEncoding(
    body: Uint8Array,
    options?: { transportLayerEncodingLabel?: string | undefined; defaultEncoding?: string },
  ): string;
}
