/**
 * Passwords too common to accept (docs/operations.md, Console security): the list of about
 * 49,000 passwords most found in breaches that @zxcvbn-ts/language-common ships (MIT). A password
 * is refused when, ignoring case, it is on the list, or is a listed one with digits or symbols
 * before or after it (`Password2024!`), or repeats one character. The list is loaded at the first
 * check (about 60 ms, once per process); a check is then a few set lookups.
 */
let listed: Promise<ReadonlySet<string>> | undefined;

function blocklist(): Promise<ReadonlySet<string>> {
  listed ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((word) => word.toLowerCase())),
  );
  return listed;
}

/** Digits, symbols and blanks around the letters of a password. */
const AROUND_LETTERS = /^[^\p{L}]+|[^\p{L}]+$/gu;

/** Why the password is too common, or undefined when it is not. */
export async function commonPasswordProblem(password: string): Promise<string | undefined> {
  const lower = password.normalize('NFC').toLowerCase();
  if (/^(.)\1*$/u.test(lower)) return 'repeats one character';
  const words = await blocklist();
  const core = lower.replace(AROUND_LETTERS, '');
  if (words.has(lower) || (core !== '' && words.has(core))) {
    return 'is a commonly used password (found in lists of breached passwords); choose another';
  }
  return undefined;
}
