import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the service must read back (webhook signing secrets, Basic passwords of crawler
 * settings) are kept encrypted at rest: AES-256-GCM with a random 96-bit nonce per value, as
 * `v1:<base64url nonce>:<base64url ciphertext + 16-byte tag>`. The purpose of the value is
 * authenticated data, so a value cannot be moved from one kind of column to another (a webhook
 * secret cannot be made to decrypt as a crawl password that is then sent to some host).
 *
 * The version prefix leaves room for another algorithm or key rotation: a reader knows what it
 * reads. Values without the prefix are plain text written before encryption existed.
 */

export const SECRET_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 'v1:';
/** 16 characters = 12 bytes of nonce; at least 22 characters = the 16-byte tag. */
const SEALED = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{22,})$/;

/** What a sealed value is; authenticated, so a value only opens for the purpose it was sealed for. */
export type SecretPurpose =
  | 'webhook-secret'
  | 'setting-password'
  /** A known text sealed with the key, kept in the store to recognise a wrong key. */
  | 'key-check';

/** The key cannot open a stored value: another key sealed it, or the value was altered. */
export class SecretKeyMismatchError extends Error {
  override name = 'SecretKeyMismatchError';
}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secret key has ${SECRET_KEY_BYTES} bytes`);
    this.#key = Buffer.from(key);
  }

  /** Whether `value` has the sealed form (it may still fail to open with this key). */
  static isSealed(value: string): boolean {
    return SEALED.test(value);
  }

  seal(plain: string, purpose: SecretPurpose): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(aadOf(purpose));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${nonce.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The plain text of a sealed value; SecretKeyMismatchError when this key did not seal it. */
  open(value: string, purpose: SecretPurpose): string {
    const match = SEALED.exec(value);
    if (!match) throw new Error('not a sealed secret');
    const nonce = Buffer.from(match[1]!, 'base64url');
    const sealed = Buffer.from(match[2]!, 'base64url');
    if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES)
      throw new SecretKeyMismatchError('a stored secret is damaged');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadOf(purpose));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretKeyMismatchError(
        'a stored secret cannot be decrypted: the secret key (KUMO_SECRET_KEY or <data>/secret-key) ' +
          'is not the one it was encrypted with',
      );
    }
  }

  /** A sealed value opened; anything else is legacy plain text and is returned as it is. */
  openOrPlain(value: string, purpose: SecretPurpose): string {
    return SecretBox.isSealed(value) ? this.open(value, purpose) : value;
  }
}

const aadOf = (purpose: SecretPurpose): Buffer => Buffer.from(`kumo:${purpose}`, 'utf8');

/**
 * The 32 bytes of a configured key: 64 hex digits, or base64 / base64url of 32 bytes.
 * Undefined when the text is neither.
 */
export function decodeSecretKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)) {
    const key = Buffer.from(value.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), 'base64url');
    if (key.length === SECRET_KEY_BYTES) return key;
  }
  return undefined;
}

/** A new random key, as the hex text kept in `<data>/secret-key`. */
export function generateSecretKeyText(): string {
  return randomBytes(SECRET_KEY_BYTES).toString('hex');
}
