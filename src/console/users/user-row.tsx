/**
 * One user of the contract in the users table: the role, which an owner changes in place; the
 * user's live sessions, each of which an owner ends; signing out everywhere; removing the user.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { ProblemMessage } from '../components/problem.js';
import { DateTime } from '../components/date-time.js';
import { dateTime } from '../format.js';
import type { Role } from '../session.js';
import { useResource } from '../use-resource.js';
import { usersTexts } from './users-texts.js';

export interface User {
  id: number;
  email: string;
  role: Role;
  created_datetime: string;
}

interface UserSession {
  id: number;
  created_datetime: string;
  last_seen_datetime: string;
  user_agent: string;
  address: string;
}

const ROLES: readonly Role[] = ['viewer', 'editor', 'owner'];

export function UserRow(props: {
  base: string;
  user: User;
  isOwner: boolean;
  isSelf: boolean;
  onChanged(notice: string): void;
  onProblem(problem: ApiProblem): void;
}) {
  const t = usersTexts();
  const { user } = props;
  const path = `${props.base}/users/${user.id}`;
  const [confirming, setConfirming] = useState<'end' | 'remove' | undefined>(undefined);
  const [showSessions, setShowSessions] = useState(false);
  const act = async (action: () => Promise<string>) => {
    setConfirming(undefined);
    try {
      props.onChanged(await action());
    } catch (error) {
      props.onProblem(problemOf(error));
    }
  };
  return (
    <>
      <tr>
        <td class="wrap">{user.email}</td>
        <td>
          {props.isOwner ? (
            <select
              aria-label={`${t.role}: ${user.email}`}
              value={user.role}
              onChange={(event) => {
                const role = event.currentTarget.value;
                void act(async () => {
                  await api.put(`${path}/role`, { role });
                  return t.roleChanged(user.email, t.roleName(role));
                });
              }}
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {t.roleName(role)}
                </option>
              ))}
            </select>
          ) : (
            t.roleName(user.role)
          )}
        </td>
        <td>
          <DateTime value={user.created_datetime} />
        </td>
        {props.isOwner && (
          <td>
            <div class="section-actions">
              <button
                type="button"
                class="button button-small"
                aria-expanded={showSessions ? 'true' : 'false'}
                onClick={() => setShowSessions(!showSessions)}
              >
                {t.sessionsOf(user.email)}
              </button>
              <button
                type="button"
                class="button button-small"
                aria-label={`${t.endSessions}: ${user.email}`}
                onClick={() => setConfirming('end')}
              >
                {t.endSessions}
              </button>
              {!props.isSelf && (
                <button
                  type="button"
                  class="button button-small button-danger"
                  aria-label={`${t.remove}: ${user.email}`}
                  onClick={() => setConfirming('remove')}
                >
                  {t.remove}
                </button>
              )}
            </div>
            <ConfirmDialog
              open={confirming !== undefined}
              title={confirming === 'remove' ? t.removeTitle : t.endSessionsTitle}
              message={
                confirming === 'remove' ? t.removeMessage(user.email) : t.endSessionsMessage(user.email)
              }
              confirmLabel={confirming === 'remove' ? t.remove : t.endSessions}
              onConfirm={() =>
                void act(async () => {
                  if (confirming === 'remove') {
                    await api.delete(path);
                    return t.removed(user.email);
                  }
                  const answer = await api.delete<{ revoked_sessions: number }>(`${path}/sessions`);
                  return t.ended(answer.revoked_sessions, user.email);
                })
              }
              onCancel={() => setConfirming(undefined)}
            />
          </td>
        )}
      </tr>
      {showSessions && (
        <tr>
          <td colSpan={4}>
            <UserSessions path={path} email={user.email} />
          </td>
        </tr>
      )}
    </>
  );
}

function UserSessions(props: { path: string; email: string }) {
  const t = usersTexts();
  const sessions = useResource<{ sessions: UserSession[] }>(`${props.path}/sessions`);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const end = async (id: number) => {
    try {
      await api.delete(`${props.path}/sessions/${id}`);
      sessions.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  if (sessions.data === undefined) return <ProblemMessage problem={sessions.problem} />;
  if (sessions.data.sessions.length === 0) return <p class="hint">{t.noSessions(props.email)}</p>;
  return (
    <>
      <ProblemMessage problem={problem} />
      <ul class="user-sessions" aria-label={t.sessionsOf(props.email)}>
        {sessions.data.sessions.map((session) => (
          <li key={session.id}>
            <span>
              {dateTime(session.created_datetime)} · {session.address} · {session.user_agent}
            </span>{' '}
            <button
              type="button"
              class="button button-small"
              aria-label={t.endOne(dateTime(session.created_datetime), props.email)}
              onClick={() => void end(session.id)}
            >
              {t.end}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
