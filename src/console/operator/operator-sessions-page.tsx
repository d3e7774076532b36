/**
 * The operator's console sessions (docs/console.md, Operator pages): every session signed in with
 * the admin token in use, any of which the operator can end. A session of a rotated token is
 * already signed out and not listed (docs/security.md, Operator sessions).
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../api.js';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { dateTime } from '../format.js';
import { useResource } from '../use-resource.js';
import { operatorTexts } from './operator-texts.js';

interface OperatorSessionRow {
  id: number;
  created_datetime: string;
  last_seen_datetime: string;
  expires_datetime: string;
  user_agent: string;
  address: string;
  current: boolean;
}

export function OperatorSessionsPage() {
  const t = operatorTexts();
  const sessions = useResource<{ sessions: OperatorSessionRow[] }>('/operator_session/sessions');
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
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.sessionStarted}</th>
                <th scope="col">{t.sessionLastSeen}</th>
                <th scope="col">{t.sessionEnds}</th>
                <th scope="col">{t.sessionBrowser}</th>
                <th scope="col">{t.sessionAddress}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.endSession}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((row) => (
                <tr key={row.id}>
                  <td>{dateTime(row.created_datetime)}</td>
                  <td>{dateTime(row.last_seen_datetime)}</td>
                  <td>{dateTime(row.expires_datetime)}</td>
                  <td class="wrap">{row.user_agent}</td>
                  <td>{row.address}</td>
                  <td>
                    {row.current ? (
                      <strong>{t.thisSession}</strong>
                    ) : (
                      <button type="button" class="button button-small" onClick={() => void end(row.id)}>
                        {t.endSession}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  );
}
