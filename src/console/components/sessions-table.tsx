/**
 * A table of signed-in sessions with a button to end each but the current one: a person's own
 * sessions on the account page and the operator's on the operator sessions page
 * (docs/console.md).
 */
import { DateTime } from '../components/date-time.js';

/** A session as the session lists of the API show it. */
export interface SessionRow {
  id: number;
  created_datetime: string;
  last_seen_datetime: string;
  expires_datetime: string;
  user_agent: string;
  address: string;
  current: boolean;
}

export interface SessionsTableTexts {
  sessionStarted: string;
  sessionLastSeen: string;
  sessionEnds: string;
  sessionBrowser: string;
  sessionAddress: string;
  thisSession: string;
  endSession: string;
}

export function SessionsTable(props: {
  sessions: readonly SessionRow[];
  texts: SessionsTableTexts;
  onEnd: (id: number) => void;
}) {
  const t = props.texts;
  return (
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
          {props.sessions.map((row) => (
            <tr key={row.id}>
              <td>
                <DateTime value={row.created_datetime} />
              </td>
              <td>
                <DateTime value={row.last_seen_datetime} />
              </td>
              <td>
                <DateTime value={row.expires_datetime} />
              </td>
              <td class="wrap">{row.user_agent}</td>
              <td>{row.address}</td>
              <td>
                {row.current ? (
                  <strong>{t.thisSession}</strong>
                ) : (
                  <button type="button" class="button button-small" onClick={() => props.onEnd(row.id)}>
                    {t.endSession}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
