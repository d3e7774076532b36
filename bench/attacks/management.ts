/**
 * The management API (docs/api.md, Management API) as the bench uses it: the operator's calls
 * with the admin token, and a console user's calls with the session cookie, its CSRF token and
 * this service's Origin (docs/api.md, Accounts and sessions).
 */
import { call, type CallAnswer, type CallOptions, callUntilReached, expectStatus } from './http-call.js';
import { ADMIN_TOKEN } from './kumo-serve.js';

/** Someone calling the management API: the operator or a signed-in user. */
export interface Caller {
  /** The request with this caller's credentials; `path` is under `/admin/v1`. */
  call(path: string, options?: CallOptions): Promise<CallAnswer>;
}

export function operator(kumoUrl: string): Caller {
  return {
    call: (path, options = {}) =>
      call(`${kumoUrl}/admin/v1${path}`, {
        ...options,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...options.headers },
      }),
  };
}

/** The operator's calls, each tried again while the service cannot be reached (callUntilReached). */
export function patientOperator(kumoUrl: string, totalMs: number): Caller {
  return {
    call: (path, options = {}) =>
      callUntilReached(
        `${kumoUrl}/admin/v1${path}`,
        { ...options, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...options.headers } },
        totalMs,
      ),
  };
}

/** Invites `email` to the contract with `role`, accepts the invitation and signs in. */
export async function signedInUser(
  kumoUrl: string,
  contractId: number,
  email: string,
  role: 'viewer' | 'editor' | 'owner',
): Promise<Caller> {
  const admin = operator(kumoUrl);
  const password = 'a long bench password';
  const invited = expectStatus<{ token: string }>(
    `invite ${email}`,
    await admin.call(`/contracts/${contractId}/invitations`, { method: 'POST', body: { email, role } }),
  );
  expectStatus(
    `accept ${email}`,
    await call(`${kumoUrl}/admin/v1/invitations/accept`, {
      method: 'POST',
      body: { token: invited.token, password },
    }),
  );
  const signIn = await call(`${kumoUrl}/admin/v1/session`, { method: 'POST', body: { email, password } });
  const { csrf_token: csrfToken } = expectStatus<{ csrf_token: string }>(`sign in ${email}`, signIn);
  const cookie = String(signIn.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  return {
    call: (path, options = {}) =>
      call(`${kumoUrl}/admin/v1${path}`, {
        ...options,
        headers: { cookie, 'x-kumo-csrf-token': csrfToken, origin: kumoUrl, ...options.headers },
      }),
  };
}
