import { createHmac, timingSafeEqual } from 'node:crypto';

/** Seconds a signed download link stays usable (docs/reference/downloads.md, Instant crawl downloads). */
export const SIGNED_URL_TTL_SECONDS = 30;

/**
 * HMAC-signed download links: the signature covers the path and the expiry, so a link cannot be
 * reused for another file or after it expires.
 */
export class DownloadSigner {
  constructor(private readonly secret: string) {}

  /** Query string (`expires=..&signature=..`) that authorises `path` until now + TTL. */
  sign(path: string, nowSeconds: number): string {
    const expires = Math.floor(nowSeconds) + SIGNED_URL_TTL_SECONDS;
    return `expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  verify(
    path: string,
    expires: string | undefined,
    signature: string | undefined,
    nowSeconds: number,
  ): boolean {
    if (expires === undefined || signature === undefined || !/^\d{1,12}$/.test(expires)) return false;
    if (!/^[0-9a-f]{64}$/.test(signature)) return false;
    const expected = Buffer.from(this.signature(path, Number(expires)), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (!timingSafeEqual(expected, given)) return false;
    return Number(expires) >= nowSeconds;
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }
}
