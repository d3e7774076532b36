/**
 * The console application: reads the session, then shows the signed-out pages (sign-in,
 * invitation) or the signed-in frame with the page of the address. A session that ends while a
 * page is open brings the sign-in page back, with a line saying why, and returns to the same
 * address after signing in.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiProblem, onSessionExpired, setCsrfToken } from '../api.js';
import { onLocaleChange } from '../i18n.js';
import { accountTexts } from '../pages/account-texts.js';
import { InvitationPage } from '../pages/invitation-page.js';
import { SignInPage } from '../pages/sign-in-page.js';
import { currentPath, matchPath, navigate, useLocation } from '../router.js';
import { ROUTES } from '../routes.js';
import { type CurrentSession, SessionContext } from '../session.js';
import { Layout } from './layout.js';
import { HomeRedirect, NotFound } from './home.js';

/** Pages anyone may open, signed in or not. */
const PUBLIC_PATHS = ['/sign-in', '/invitation'];

export function App() {
  const [, setLanguageTick] = useState(0);
  const [session, setSession] = useState<CurrentSession | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);
  const { path, query } = useLocation();
  const hadSession = useRef(false);

  useEffect(() => onLocaleChange(() => setLanguageTick((tick) => tick + 1)), []);
  useEffect(
    () =>
      onSessionExpired(() => {
        setCsrfToken(null);
        // Only a session that was there can end: a first visit without one just signs in.
        if (hadSession.current) setEnded(true);
        hadSession.current = false;
        setSession(null);
      }),
    [],
  );
  useEffect(() => {
    readSession()
      .then((answer) => {
        setCsrfToken(answer.csrf_token);
        hadSession.current = true;
        setSession(answer);
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiProblem) || error.status !== 401) console.error(error);
        setSession(null);
      });
  }, []);

  const signedIn = (answer: CurrentSession) => {
    setCsrfToken(answer.csrf_token);
    hadSession.current = true;
    setSession(answer);
    setEnded(false);
    const back = query.get('next');
    navigate(back !== null && back.startsWith('/') && !back.startsWith('//') ? back : '/', { replace: true });
  };

  if (session === undefined) return <p class="loading" role="status" aria-busy="true" />;
  if (path === '/invitation') return <InvitationPage onSignedIn={signedIn} />;
  if (session === null || path === '/sign-in') {
    if (session !== null) {
      navigate('/', { replace: true });
      return null;
    }
    const next = PUBLIC_PATHS.includes(path) ? query.get('next') : currentPath();
    if (path !== '/sign-in') {
      navigate(`/sign-in${next !== null && next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}`, {
        replace: true,
      });
      return null;
    }
    const accepted = query.get('accepted');
    return (
      <SignInPage
        ended={ended}
        notice={accepted === null ? undefined : accountTexts().accepted(accepted)}
        {...(accepted === null ? {} : { email: accepted })}
        onSignedIn={signedIn}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Layout path={path}>{pageOf(path)}</Layout>
    </SessionContext.Provider>
  );
}

function pageOf(path: string) {
  if (path === '/') return <HomeRedirect />;
  for (const route of ROUTES) {
    const params = matchPath(route.pattern, path);
    if (params !== null) return route.view(params);
  }
  return <NotFound />;
}

/**
 * The browser's session, an account's or the operator's, in one request: GET /session answers
 * both (docs/api.md, Operator sessions); a 401 means neither.
 */
export async function readSession(): Promise<CurrentSession> {
  const answer = await api.get<CurrentSession>('/session');
  return {
    account: answer.account,
    csrf_token: answer.csrf_token,
    timezone: answer.timezone,
    search_url: answer.search_url,
  };
}
