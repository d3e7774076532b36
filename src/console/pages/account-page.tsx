/**
 * The signed-in person's own account (docs/api.md, Accounts and sessions): who they are and their
 * role, changing the password (which signs out their other sessions), and the list of their
 * sessions, any of which they can end.
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, problemOf } from '../api.js';
import { Field } from '../components/field.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { type SessionRow, SessionsTable } from '../components/sessions-table.js';
import { useSession } from '../session.js';
import { NotFound } from '../shell/home.js';
import { useResource } from '../use-resource.js';
import { accountTexts } from './account-texts.js';

export function AccountPage() {
  const t = accountTexts();
  const { account } = useSession();
  // The operator has no account: its credential is the admin token, changed where it is kept.
  if (account === null) return <NotFound />;
  return (
    <Page title={t.accountTitle}>
      <dl class="facts">
        <dt>{t.email}</dt>
        <dd>{account.email}</dd>
        <dt>{t.role}</dt>
        <dd>
          <strong>{account.role}</strong>
          <p class="hint">{t.roles}</p>
        </dd>
      </dl>
      <PasswordForm />
      <SessionList />
    </Page>
  );
}

function PasswordForm() {
  const t = accountTexts();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      const answer = await api.put<{ revoked_sessions: number }>('/session/password', {
        current_password: current,
        new_password: next,
      });
      setCurrent('');
      setNext('');
      setDone(t.passwordChanged(answer.revoked_sessions));
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title={t.changePassword}>
      {done !== undefined && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
      <ProblemMessage problem={problem} />
      <form onSubmit={(event) => void submit(event)} noValidate class="narrow-form">
        <Field id="current-password" label={t.currentPassword} error={problem?.reasonFor('current_password')}>
          <input
            type="password"
            autocomplete="current-password"
            value={current}
            onInput={(event) => setCurrent((event.target as HTMLInputElement).value)}
          />
        </Field>
        <Field
          id="new-password"
          label={t.newPassword}
          hint={t.passwordHint}
          error={problem?.reasonFor('new_password')}
        >
          <input
            type="password"
            autocomplete="new-password"
            value={next}
            onInput={(event) => setNext((event.target as HTMLInputElement).value)}
          />
        </Field>
        <button type="submit" class="button button-primary" disabled={busy}>
          {t.savePassword}
        </button>
      </form>
    </Section>
  );
}

function SessionList() {
  const t = accountTexts();
  const sessions = useResource<{ sessions: SessionRow[] }>('/session/sessions');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const end = async (id: number) => {
    try {
      await api.delete(`/session/sessions/${id}`);
      sessions.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <Section title={t.sessions}>
      <ProblemMessage problem={problem ?? sessions.problem} />
      {sessions.data === undefined ? (
        <Loading />
      ) : (
        <SessionsTable sessions={sessions.data.sessions} texts={t} onEnd={(id) => void end(id)} />
      )}
    </Section>
  );
}
