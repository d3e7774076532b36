import type { OperatorSessionRecord } from '../../store/account-store.js';
import type { Actor } from './account-roles.js';
import { ManagementOperations } from './management-context.js';
import { SignInRefusedError } from './management-errors.js';
import { csrfTokenOf, hashSecret, newSecret, sameToken } from './secret-tokens.js';
import {
  isLive,
  SESSION_ABSOLUTE_MICROS,
  type SignInClient,
  TOUCH_EVERY_MICROS,
} from './session-management.js';
import { type LimitedKey, reserveAttempt, SIGN_IN_LIMITS, SignInLimiter } from './sign-in-limiter.js';

/** A request's operator session: the operator acting through the console. */
export interface OperatorSessionContext {
  actor: Actor;
  session: OperatorSessionRecord;
  csrfToken: string;
}

const OPERATOR_ACTOR: Actor = { kind: 'operator', via: 'console' };

/**
 * The operator in the browser (docs/api.md, Operator sessions): the admin token, typed once into
 * the console, buys an HttpOnly session cookie like an account's (same lifetimes, CSRF token and
 * sign-in limits per address), so the token itself is never kept by the page. The operator's
 * changes are in the audit log as the operator via `console`. A wrong admin token counts against
 * the same limit whether it is typed into the console or sent as a bearer token
 * (docs/operations.md, Console security), so neither way lets an address try more tokens.
 */
export class OperatorSessionManagement extends ManagementOperations {
  private readonly limiter = new SignInLimiter();

  /** Checks `given` against the admin token; SignInRefusedError or SignInLimitedError. */
  async signIn(
    given: string,
    adminToken: string,
    client: SignInClient,
  ): Promise<OperatorSessionContext & { secret: string }> {
    this.checkAdminToken(given, adminToken, client.address);
    const now = this.now();
    const secret = newSecret();
    const session = await this.store.operatorSessions.create(
      {
        createdMicros: now,
        lastSeenMicros: now,
        expiresMicros: now + SESSION_ABSOLUTE_MICROS,
        userAgent: client.userAgent.slice(0, 200),
        address: client.address,
      },
      hashSecret(secret),
    );
    return { secret, actor: OPERATOR_ACTOR, session, csrfToken: csrfTokenOf(secret) };
  }

  /**
   * Checks a token given as the admin token (a bearer token, or typed into the console) from a
   * client address: SignInLimitedError once the address has failed SIGN_IN_LIMITS.perAccount
   * times within the window, even for the right token, else SignInRefusedError when it is wrong.
   */
  checkAdminToken(given: string, adminToken: string, address: string): void {
    const key: LimitedKey = { key: `operator:${address}`, limit: SIGN_IN_LIMITS.perAccount };
    const attempt = reserveAttempt(this.limiter, [key], this.now(), 'wrong admin tokens');
    if (adminToken === '' || !sameToken(given, adminToken)) {
      attempt.failed(this.now());
      throw new SignInRefusedError();
    }
    attempt.succeeded();
    this.limiter.clear(key.key);
  }

  /** The live operator session of a cookie's value, or undefined. */
  async authenticate(secret: string): Promise<OperatorSessionContext | undefined> {
    const session = await this.store.operatorSessions.findByHash(hashSecret(secret));
    const now = this.now();
    if (session === undefined || !isLive(session, now)) return undefined;
    if (now - session.lastSeenMicros >= TOUCH_EVERY_MICROS) {
      await this.store.operatorSessions.touch(session.id, now);
      session.lastSeenMicros = now;
    }
    return { actor: OPERATOR_ACTOR, session, csrfToken: csrfTokenOf(secret) };
  }

  async signOut(sessionId: number): Promise<void> {
    await this.store.operatorSessions.revoke(sessionId, this.now());
  }
}
