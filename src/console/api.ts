/**
 * The console's only way to the server: the documented management API under /admin/v1
 * (docs/api.md, Management API), with the session cookie the browser holds and, on every change,
 * the session's CSRF token (docs/api.md, Accounts and sessions). Failures arrive as the API's NG
 * body and are thrown as an ApiProblem that forms read field by field.
 */
export const API_BASE = '/admin/v1';

/** One bad field of a 400, as the API names it (`body.setting.seed_urls[0]`). */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** A failed call: its status, the API's message and its field errors. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: readonly FieldProblem[] = [],
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiProblem';
  }

  /** The reason given for `field` (a body field without its `body.` prefix also matches). */
  reasonFor(field: string): string | undefined {
    return this.errors.find((error) => error.field === field || error.field === `body.${field}`)?.reason;
  }
}

/** Any failure as an ApiProblem, for a view to show (a thrown non-API error keeps its text). */
export function problemOf(error: unknown): ApiProblem {
  return error instanceof ApiProblem ? error : new ApiProblem(0, String(error));
}

let csrfToken: string | null = null;
const expiryListeners = new Set<() => void>();

/** Set at sign-in and when the session is read: every change sends it. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a call finds the session ended (401), so the shell shows the sign-in page. */
export function onSessionExpired(listener: () => void): () => void {
  expiryListeners.add(listener);
  return () => expiryListeners.delete(listener);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Calls `path` under /admin/v1 and answers its JSON; throws ApiProblem for any failure. */
export async function call<T>(
  method: Method,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken !== null) headers['x-kumo-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiProblem(0, 'the service cannot be reached; check the connection and try again');
  }
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page; the status says enough.
  }
  if (!response.ok) {
    const answer = (json ?? {}) as { message?: string; errors?: FieldProblem[] };
    const retry = Number(response.headers.get('retry-after'));
    const problem = new ApiProblem(
      response.status,
      answer.message ?? `${response.status} ${response.statusText}`,
      answer.errors ?? [],
      Number.isFinite(retry) && retry > 0 ? retry : null,
    );
    // Sign-in itself answers 401 for a wrong password: any other 401 means the session ended.
    const signingIn =
      (method === 'POST' && (path === '/session' || path === '/operator_session')) ||
      path === '/invitations/accept';
    if (response.status === 401 && !signingIn) {
      for (const listener of expiryListeners) listener();
    }
    throw problem;
  }
  return json as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => call<T>('GET', path, undefined, signal),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => call<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  delete: <T>(path: string) => call<T>('DELETE', path),
};

/** `/contracts/{c}/servicegroups/{g}`: the prefix of a service group's resources. */
export function groupPath(contractId: number, groupId: number): string {
  return `/contracts/${contractId}/servicegroups/${groupId}`;
}
