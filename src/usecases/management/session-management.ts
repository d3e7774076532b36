import type { SessionRecord } from '../../store/index.js';
import { identity, normalEmail, shown, type AccountView } from './account-management.js';
import type { AccountActor } from './account-roles.js';
import { ManagementOperations, type ManagementDeps } from './management-context.js';
import { NotFoundError, PasswordChecksBusyError, SignInRefusedError } from './management-errors.js';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { csrfTokenOf, hashSecret, newSecret } from './secret-tokens.js';
import {
  accountAttemptsKey,
  reserveAttempt,
  settle,
  SIGN_IN_LIMITS,
  type SignInLimiter,
} from './sign-in-limiter.js';

/**
 * How long a session lives (docs/api.md, Accounts and sessions): it ends after SESSION_IDLE
 * without a request, and SESSION_ABSOLUTE after the sign-in whatever its use.
 */
export const SESSION_IDLE_MICROS = 2 * 3600 * 1_000_000;
export const SESSION_ABSOLUTE_MICROS = 12 * 3600 * 1_000_000;

/** A request's last use is written at most this often (a write per request is not needed). */
export const TOUCH_EVERY_MICROS = 60 * 1_000_000;

/** Where a sign-in comes from: the rate limit's address and what a session list shows. */
export interface SignInClient {
  address: string;
  userAgent: string;
}

/** A session as its own requests see it. */
export interface SessionContext {
  actor: AccountActor;
  account: AccountView;
  session: SessionRecord;
  /** Sent back in a header with every change (docs/api.md, Accounts and sessions). */
  csrfToken: string;
}

/** A sign-in: the session id (the cookie's value, shown only here) and its context. */
export interface SignedIn extends SessionContext {
  secret: string;
}

/**
 * Signing in and out of the console, and the sessions of an account. Session ids are random and
 * stored as their hash; the CSRF token is derived from the id (secret-tokens.ts).
 */
export class SessionManagement extends ManagementOperations {
  /** A hash to check passwords of unknown addresses against: the same work as a real one. */
  private decoy: Promise<string> | undefined;

  /** `limiter` counts the password attempts of accounts, shared with changing a password. */
  constructor(
    deps: ManagementDeps,
    private readonly limiter: SignInLimiter,
  ) {
    super(deps);
  }

  /**
   * Checks the password; SignInRefusedError, SignInLimitedError when the account or the address
   * has used its attempts (those in flight count), PasswordChecksBusyError when too many
   * passwords are being checked at once (that attempt is not counted).
   */
  async signIn(input: { email: string; password: string }, client: SignInClient): Promise<SignedIn> {
    const email = normalEmail(input.email);
    const accountKey = accountAttemptsKey(email);
    const attempt = reserveAttempt(
      this.limiter,
      [
        { key: accountKey, limit: SIGN_IN_LIMITS.perAccount },
        { key: `address:${client.address}`, limit: SIGN_IN_LIMITS.perAddress },
      ],
      this.now(),
    );
    const account = await settle(attempt, async () => {
      const found = await this.store.accounts.findByEmail(email);
      const matches = await verifyPassword(input.password, found?.passwordHash ?? (await this.decoyHash()));
      return matches ? found : undefined;
    });
    if (account === undefined) {
      attempt.failed(this.now());
      throw new SignInRefusedError();
    }
    attempt.succeeded();
    this.limiter.clear(accountKey);
    const now = this.now();
    if (needsRehash(account.passwordHash)) await this.rehash(account.id, input.password, now);
    const secret = newSecret();
    const session = await this.store.sessions.create(
      {
        accountId: account.id,
        createdMicros: now,
        lastSeenMicros: now,
        expiresMicros: now + SESSION_ABSOLUTE_MICROS,
        userAgent: client.userAgent.slice(0, 200),
        address: client.address,
      },
      hashSecret(secret),
    );
    const signedIn = contextOf(account, session, secret);
    await this.changed(
      signedIn.actor,
      'sign_in',
      'session',
      { id: session.id, contractId: account.contractId },
      now,
    );
    return { secret, ...signedIn };
  }

  /** The decoy hash, made once; made again later when the hash queue refused it. */
  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(newSecret()).catch((error: unknown) => {
      this.decoy = undefined;
      throw error;
    });
    return this.decoy;
  }

  /** Hashes the password again with today's parameters; left to a later sign-in when busy. */
  private async rehash(accountId: number, password: string, now: number): Promise<void> {
    try {
      await this.store.accounts.setPassword(accountId, await hashPassword(password), now);
    } catch (error) {
      if (!(error instanceof PasswordChecksBusyError)) throw error;
    }
  }

  /**
   * The session of a cookie's value, or undefined when it is unknown, revoked, idle longer than
   * SESSION_IDLE or older than SESSION_ABSOLUTE. A use keeps it from going idle.
   */
  async authenticate(secret: string): Promise<SessionContext | undefined> {
    const session = await this.store.sessions.findByHash(hashSecret(secret));
    const now = this.now();
    if (session === undefined || !isLive(session, now)) return undefined;
    const account = await this.store.accounts.get(session.accountId);
    if (account === undefined) return undefined;
    if (now - session.lastSeenMicros >= TOUCH_EVERY_MICROS) {
      await this.store.sessions.touch(session.id, now);
      session.lastSeenMicros = now;
    }
    return contextOf(account, session, secret);
  }

  /**
   * Whether a cookie's session is still live, without counting as a use: what a long response
   * (a run's event stream) checks while it lasts.
   */
  async isSignedIn(secret: string): Promise<boolean> {
    const session = await this.store.sessions.findByHash(hashSecret(secret));
    if (session === undefined || !isLive(session, this.now())) return false;
    return (await this.store.accounts.get(session.accountId)) !== undefined;
  }

  /** Ends the session of the request (signing out). */
  async signOut(actor: AccountActor): Promise<void> {
    const now = this.now();
    if (await this.store.sessions.revoke(actor.sessionId, now))
      await this.changed(
        actor,
        'sign_out',
        'session',
        { id: actor.sessionId, contractId: actor.contractId },
        now,
      );
  }

  /** The account's live sessions, oldest first. */
  async list(actor: AccountActor): Promise<SessionRecord[]> {
    const now = this.now();
    return (await this.store.sessions.listActive(actor.accountId, now)).filter((session) =>
      isLive(session, now),
    );
  }

  /** Ends one of the account's own sessions; NotFoundError for another's or an ended one. */
  async revoke(actor: AccountActor, sessionId: number): Promise<void> {
    const session = (await this.list(actor)).find((one) => one.id === sessionId);
    const now = this.now();
    if (session === undefined || !(await this.store.sessions.revoke(session.id, now))) {
      throw new NotFoundError('session', sessionId, `no active session ${sessionId} of this account`);
    }
    await this.changed(actor, 'revoke', 'session', { id: session.id, contractId: actor.contractId }, now);
  }
}

/** When a live session ends: at its idle limit or its absolute end, whichever is first. */
export function sessionEndMicros(session: Pick<SessionRecord, 'lastSeenMicros' | 'expiresMicros'>): number {
  return Math.min(session.lastSeenMicros + SESSION_IDLE_MICROS, session.expiresMicros);
}

export function isLive(
  session: Pick<SessionRecord, 'lastSeenMicros' | 'expiresMicros' | 'revokedMicros'>,
  nowMicros: number,
): boolean {
  return session.revokedMicros === null && nowMicros < sessionEndMicros(session);
}

function contextOf(
  account: Parameters<typeof identity>[0],
  session: SessionRecord,
  secret: string,
): SessionContext {
  return {
    actor: { kind: 'account', ...identity(account), sessionId: session.id },
    account: shown(account),
    session,
    csrfToken: csrfTokenOf(secret),
  };
}
