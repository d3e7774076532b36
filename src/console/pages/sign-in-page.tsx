/**
 * Sign-in (docs/api.md, Accounts and sessions): email and password; the API's answer is shown as
 * it is (one message for an unknown address and a wrong password; after too many failures, when
 * to try again).
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { ProblemMessage } from '../components/problem.js';
import { LanguageSwitch } from '../components/language-switch.js';
import type { CurrentSession } from '../session.js';
import { shellTexts } from '../shell/shell-texts.js';
import { accountTexts } from './account-texts.js';

export function SignInPage(props: {
  ended: boolean;
  notice?: string;
  /** The address to start with: the one of an invitation just accepted. */
  email?: string;
  onSignedIn(session: CurrentSession): void;
}) {
  const t = accountTexts();
  const shell = shellTexts();
  const [email, setEmail] = useState(props.email ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  document.title = `${t.signInTitle} · Kumo`;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await api.post('/session', { email, password });
      props.onSignedIn(await api.get<CurrentSession>('/session'));
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signed-out">
      <div class="card">
        <LanguageSwitch />
        <h1>{t.signInTitle}</h1>
        {props.ended && (
          <p class="notice" role="status">
            {shell.sessionEnded}
          </p>
        )}
        {props.notice !== undefined && (
          <p class="notice" role="status">
            {props.notice}
          </p>
        )}
        <ProblemMessage problem={problem} />
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field id="sign-in-email" label={t.email} error={problem?.reasonFor('email')}>
            <input
              type="email"
              name="email"
              autocomplete="username"
              required
              value={email}
              onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
            />
          </Field>
          <Field id="sign-in-password" label={t.password} error={problem?.reasonFor('password')}>
            <input
              type="password"
              name="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(event) => setPassword((event.target as HTMLInputElement).value)}
            />
          </Field>
          <button type="submit" class="button button-primary" disabled={busy}>
            {busy ? t.signingIn : t.signIn}
          </button>
        </form>
        <OperatorSignIn onSignedIn={props.onSignedIn} />
      </div>
    </main>
  );
}

/** The operator signs in with the admin token; the page keeps only the session cookie it buys. */
function OperatorSignIn(props: { onSignedIn(session: CurrentSession): void }) {
  const t = accountTexts();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await api.post<Omit<CurrentSession, 'account'>>('/operator_session', {
        admin_token: token,
      });
      props.onSignedIn({
        account: null,
        csrf_token: answer.csrf_token,
        timezone: answer.timezone,
        search_url: answer.search_url,
      });
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  };
  return (
    <details class="operator-sign-in">
      <summary>{t.operatorSignIn}</summary>
      <ProblemMessage problem={problem} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field
          id="sign-in-admin-token"
          label={t.adminToken}
          hint={t.adminTokenHint}
          error={problem?.reasonFor('admin_token')}
        >
          <input
            type="password"
            autocomplete="off"
            value={token}
            onInput={(event) => setToken((event.target as HTMLInputElement).value)}
          />
        </Field>
        <button type="submit" class="button" disabled={busy}>
          {t.signInAsOperator}
        </button>
      </form>
    </details>
  );
}
