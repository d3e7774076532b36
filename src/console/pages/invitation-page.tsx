/**
 * Accepting an invitation (docs/api.md, Accounts and sessions): the token comes in the address's
 * fragment (it never reaches a server log or a Referer); the person chooses a password, typed
 * twice, and is signed in by the same answer. Only when the sign-in limits refuse at that moment
 * is the person sent to sign in, with the address filled in.
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { LanguageSwitch } from '../components/language-switch.js';
import { ProblemMessage } from '../components/problem.js';
import { navigate } from '../router.js';
import type { CurrentSession } from '../session.js';
import { accountTexts } from './account-texts.js';

function tokenOfFragment(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  return token === null || token === '' ? null : token;
}

type AcceptAnswer = ({ signed_in: true } & CurrentSession) | { signed_in: false; account: { email: string } };

export function InvitationPage(props: { onSignedIn(session: CurrentSession): void }) {
  const t = accountTexts();
  const [token] = useState(tokenOfFragment);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  document.title = `${t.invitationTitle} · Kumo`;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password !== repeat) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await api.post<AcceptAnswer>('/invitations/accept', { token, password });
      // The token is spent: drop it from the address and the history.
      history.replaceState(null, '', location.pathname);
      if (answer.signed_in) {
        props.onSignedIn({
          account: answer.account,
          csrf_token: answer.csrf_token,
          timezone: answer.timezone,
          search_url: answer.search_url,
        });
      } else {
        navigate(`/sign-in?accepted=${encodeURIComponent(answer.account.email)}`, { replace: true });
      }
    } catch (error) {
      setProblem(problemOf(error));
      setBusy(false);
    }
  };

  return (
    <main id="main" class="signed-out">
      <div class="card">
        <LanguageSwitch />
        <h1>{t.invitationTitle}</h1>
        {token === null ? (
          <p class="problem" role="alert">
            {t.noToken}
          </p>
        ) : (
          <>
            <p>{t.invitationIntro}</p>
            <ProblemMessage problem={problem} />
            <form onSubmit={(event) => void submit(event)} noValidate>
              <Field
                id="invitation-password"
                label={t.newPassword}
                hint={t.passwordHint}
                error={problem?.reasonFor('password')}
              >
                <input
                  type="password"
                  autocomplete="new-password"
                  required
                  value={password}
                  onInput={(event) => setPassword((event.target as HTMLInputElement).value)}
                />
              </Field>
              <Field
                id="invitation-repeat"
                label={t.repeatPassword}
                error={mismatch ? t.passwordsDiffer : undefined}
              >
                <input
                  type="password"
                  autocomplete="new-password"
                  required
                  value={repeat}
                  onInput={(event) => setRepeat((event.target as HTMLInputElement).value)}
                />
              </Field>
              <button type="submit" class="button button-primary" disabled={busy}>
                {t.createAccount}
              </button>
            </form>
          </>
        )}
      </div>
    </main>
  );
}
