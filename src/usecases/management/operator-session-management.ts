import type { OperatorSessionRecord } from '../../store/index.js';
import type { Actor } from './account-roles.js';
import { ManagementOperations } from './management-context.js';
import { NotFoundError, SignInRefusedError } from './management-errors.js';
import { adminTokenFingerprint, csrfTokenOf, hashSecret, newSecret, sameToken } from './secret-tokens.js';
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
 *
 * A session is bound to the token that made it (docs/security.md, Operator sessions): it keeps
 * the token's fingerprint, and a service started with another token treats it as signed out, so
 * rotating a leaked token also ends the sessions bought with it.
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
        tokenFingerprint: adminTokenFingerprint(adminToken),
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

  /** The live operator session of a cookie's value made with `adminToken`, or undefined. */
  async authenticate(secret: string, adminToken: string): Promise<OperatorSessionContext | undefined> {
    const session = await this.liveSession(secret, adminToken);
    if (session === undefined) return undefined;
    const now = this.now();
    if (now - session.lastSeenMicros >= TOUCH_EVERY_MICROS) {
      await this.store.operatorSessions.touch(session.id, now);
      session.lastSeenMicros = now;
    }
    return { actor: OPERATOR_ACTOR, session, csrfToken: csrfTokenOf(secret) };
  }

  /**
   * Whether a cookie's session is still live, without counting as a use: what a long response
   * (a run's event stream) checks while it lasts.
   */
  async isSignedIn(secret: string, adminToken: string): Promise<boolean> {
    return (await this.liveSession(secret, adminToken)) !== undefined;
  }

  async signOut(sessionId: number): Promise<void> {
    await this.store.operatorSessions.revoke(sessionId, this.now());
  }

  /** The live sessions of the current admin token, oldest first. */
  async list(adminToken: string): Promise<OperatorSessionRecord[]> {
    const now = this.now();
    const sessions = await this.store.operatorSessions.listActive(adminTokenFingerprint(adminToken), now);
    return sessions.filter((session) => isLive(session, now));
  }

  /** Ends a live session of the current admin token; NotFoundError for any other number. */
  async revoke(sessionId: number, adminToken: string): Promise<void> {
    const session = (await this.list(adminToken)).find((one) => one.id === sessionId);
    if (session === undefined || !(await this.store.operatorSessions.revoke(session.id, this.now()))) {
      throw new NotFoundError('operator session', sessionId, `no active operator session ${sessionId}`);
    }
  }

  private async liveSession(secret: string, adminToken: string): Promise<OperatorSessionRecord | undefined> {
    const session = await this.store.operatorSessions.findByHash(hashSecret(secret));
    if (session === undefined || !isLive(session, this.now())) return undefined;
    const fingerprint = session.tokenFingerprint;
    if (fingerprint === null || !fingerprint.equals(adminTokenFingerprint(adminToken))) return undefined;
    return session;
  }
}
