/**
 * One webhook's deliveries, newest first (docs/api.md, Management API): event, state, attempts,
 * the last response code or error, and when it was queued, delivered or will be tried again;
 * owners send one again at once.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiProblem, problemOf } from '../api.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { count, dateTime } from '../format.js';
import { useResource } from '../use-resource.js';
import { stateName, webhooksTexts } from './webhooks-texts.js';

interface Delivery {
  id: number;
  event: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string;
  next_attempt_datetime: string | null;
  created_datetime: string;
  delivered_datetime: string | null;
}

const BADGES = { pending: 'badge-running', delivered: 'badge-ok', failed: 'badge-failed' } as const;

export function DeliveriesTable(props: { webhookPath: string; canReplay: boolean }) {
  const t = webhooksTexts();
  const deliveries = useResource<{ deliveries: Delivery[] }>(`${props.webhookPath}/deliveries?limit=50`);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);

  // A delivery just queued (a ping, a replay) is attempted within a second or two: its answer is
  // read again a few times rather than asking the person to reload.
  const [followUps, setFollowUps] = useState(0);
  const waiting = deliveries.data?.deliveries.some(
    (delivery) => delivery.state === 'pending' && delivery.attempts === 0,
  );
  useEffect(() => {
    if (!waiting || followUps >= 10) return;
    const timer = setTimeout(() => {
      setFollowUps((count) => count + 1);
      deliveries.reload();
    }, 1000);
    return () => clearTimeout(timer);
  }, [waiting, followUps, deliveries.data]);

  const ping = async () => {
    setProblem(undefined);
    try {
      await api.post(`${props.webhookPath}/ping`);
      setNotice(t.pinged);
      setFollowUps(0);
      deliveries.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  const replay = async (id: number) => {
    setProblem(undefined);
    try {
      await api.post(`${props.webhookPath}/deliveries/${id}/replay`);
      setNotice(t.replayed);
      setFollowUps(0);
      deliveries.reload();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  if (deliveries.data === undefined) {
    return deliveries.problem === undefined ? <Loading /> : <ProblemMessage problem={deliveries.problem} />;
  }
  const pingButton = props.canReplay && (
    <button type="button" class="button button-small" onClick={() => void ping()}>
      {t.ping}
    </button>
  );
  if (deliveries.data.deliveries.length === 0)
    return (
      <>
        <ProblemMessage problem={problem} />
        <p class="hint">{t.noDeliveries}</p>
        {pingButton}
      </>
    );
  return (
    <>
      {pingButton}
      <ProblemMessage problem={problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">{t.event}</th>
              <th scope="col">{t.state}</th>
              <th scope="col" class="number">
                {t.attempts}
              </th>
              <th scope="col">{t.statusCode}</th>
              <th scope="col" class="number">
                {t.duration}
              </th>
              <th scope="col">{t.lastError}</th>
              <th scope="col">{t.queued}</th>
              <th scope="col">{t.delivered}</th>
              <th scope="col">{t.nextAttempt}</th>
              {props.canReplay && (
                <th scope="col">
                  <span class="visually-hidden">{t.replay}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {deliveries.data.deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>
                  <code>{delivery.event}</code>
                </td>
                <td>
                  <span class={`badge ${BADGES[delivery.state]}`}>{stateName(delivery.state)}</span>
                </td>
                <td class="number">{delivery.attempts}</td>
                <td>{delivery.last_status_code ?? '—'}</td>
                <td class="number">
                  {delivery.last_duration_ms === null ? '—' : `${count(delivery.last_duration_ms)} ms`}
                </td>
                <td class="wrap">{delivery.last_error === '' ? '—' : delivery.last_error}</td>
                <td class="nowrap">{dateTime(delivery.created_datetime, { seconds: true })}</td>
                <td class="nowrap">{dateTime(delivery.delivered_datetime, { seconds: true })}</td>
                <td class="nowrap">{dateTime(delivery.next_attempt_datetime, { seconds: true })}</td>
                {props.canReplay && (
                  <td>
                    <button
                      type="button"
                      class="button button-small"
                      onClick={() => void replay(delivery.id)}
                    >
                      {t.replay}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
