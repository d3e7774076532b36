import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The `x-mf-signature` header of webhook requests: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `<t>.<body>`. Signing the time with the body lets a receiver reject a captured request replayed
 * later; verification lives here too so receivers (and tests) check it exactly as we sign it.
 */

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

function hmacHex(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/** The header value for a request sent at `unixSeconds` (the time of the attempt, not of the event). */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, unixSeconds, body)}`;
}

/**
 * True when `header` carries a v1 signature of `body` with `secret`, made within
 * `toleranceSeconds` of `nowSeconds`. Several v1 values are accepted so a sender may sign with an
 * old and a new secret while they are rotated.
 */
export function verifySignature(
  header: string | undefined,
  secret: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  if (header === undefined) return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && UNIX_SECONDS.test(value)) timestamp = Number(value);
    else if (key === 'v1' && HEX_SHA256.test(value)) candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  // Every candidate is compared, so the time taken does not reveal which one matched.
  let matched = false;
  for (const candidate of candidates) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  return matched;
}
