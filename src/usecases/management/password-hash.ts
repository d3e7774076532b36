import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { InvalidInputError } from '../../domain/index.js';
import { commonPasswordProblem } from './password-blocklist.js';
import { PASSWORD_HASH_LIMITS, PasswordHashGate } from './password-hash-gate.js';

/**
 * Passwords of console accounts, hashed with scrypt (memory-hard) and a salt of their own. The
 * stored text carries its parameters, `scrypt$N$r$p$salt$hash`, so they can be raised later: a
 * hash made with lower ones is made again at the next sign-in (docs/operations.md, Console
 * security). N = 2^15, r = 8 take 32 MiB and about 100 ms per hash on a small server.
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** Length bounds of a password, in characters (docs/api.md, Accounts and sessions). */
export const PASSWORD_CHARS = { min: 12, max: 1024 } as const;

/**
 * The password's problem, for a field error; undefined when it is acceptable: its length, then
 * whether it is too common (password-blocklist.ts).
 */
export async function passwordProblem(password: string): Promise<string | undefined> {
  const length = [...password].length;
  if (length < PASSWORD_CHARS.min) return `must be at least ${PASSWORD_CHARS.min} characters long`;
  if (length > PASSWORD_CHARS.max) return `must be at most ${PASSWORD_CHARS.max} characters long`;
  return commonPasswordProblem(password);
}

/** Throws InvalidInputError naming `field` when the password is not acceptable. */
export async function checkPassword(password: string, field: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem !== undefined) throw new InvalidInputError([{ field, reason: problem }]);
}

/**
 * Every hash of the process goes through one gate: the thread pool scrypt runs on is the
 * process's, shared with the rest of the service (password-hash-gate.ts).
 */
const gate = new PasswordHashGate(PASSWORD_HASH_LIMITS);

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  const key = await derive(password, salt, { N, r, p });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * Whether the password gives the stored hash; false for a hash this build cannot read.
 * PasswordChecksBusyError, like hashPassword, when too many hashes are queued.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (parsed === undefined) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** Whether the stored hash was made with parameters below today's (to hash again at sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (parsed === undefined) return true;
  const { N, r, p } = parsed.params;
  return N < SCRYPT_PARAMS.N || r < SCRYPT_PARAMS.r || p < SCRYPT_PARAMS.p;
}

interface ParsedHash {
  params: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((value) => Number.isInteger(value) && value > 0)) return undefined;
  return {
    params: { N, r, p },
    salt: Buffer.from(parts[4]!, 'base64url'),
    hash: Buffer.from(parts[5]!, 'base64url'),
  };
}

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  keyBytes = KEY_BYTES,
): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node refuses more than maxmem (32 MiB by default), so allow twice.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return gate.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}
