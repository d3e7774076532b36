/**
 * The operator's console sessions (docs/console.md, Operator pages): every session signed in with
 * the admin token in use, any of which the operator can end. A session of a rotated token is
 * already signed out and not listed (docs/security.md, Operator sessions).
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../api.js';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { type SessionRow, SessionsTable } from '../components/sessions-table.js';
import { useResource } from '../use-resource.js';
import { operatorTexts } from './operator-texts.js';

export function OperatorSessionsPage() {
  const t = operatorTexts();
  const sessions = useResource<{ sessions: SessionRow[] }>('/operator_session/sessions');
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [ended, setEnded] = useState<number | undefined>(undefined);

  const end = async (id: number) => {
    setProblem(undefined);
    setEnded(undefined);
    try {
      await api.delete(`/operator_session/sessions/${id}`);
      setEnded(id);
      sessions.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  return (
    <Page title={t.sessionsTitle}>
      <p class="hint">{t.sessionsIntro}</p>
      {ended !== undefined && (
        <p class="notice" role="status">
          {t.sessionEnded(ended)}
        </p>
      )}
      <ProblemMessage problem={problem ?? sessions.problem} />
      {sessions.data === undefined ? (
        <Loading />
      ) : sessions.data.sessions.length === 0 ? (
        <p>{t.noSessions}</p>
      ) : (
        <SessionsTable sessions={sessions.data.sessions} texts={t} onEnd={(id) => void end(id)} />
      )}
    </Page>
  );
}
