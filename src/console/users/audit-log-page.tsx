/**
 * A contract's audit log (docs/api.md, Audit log), for owners: newest first, 50 a page, with
 * "Older entries" following `next_before_id` (kept in the address, so a page can be shared).
 */
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { href, useLocation } from '../router.js';
import { useResource } from '../use-resource.js';
import { usersTexts } from './users-texts.js';
import { DateTime } from '../components/date-time.js';

interface AuditEntry {
  id: number;
  datetime: string;
  actor: { kind: 'operator' | 'account'; via: string; account_id: number | null; email: string | null };
  action: string;
  resource: string;
  resource_id: number;
  servicegroup_id: number | null;
}

export function AuditLogPage(props: { contractId: number }) {
  const t = usersTexts();
  const { query } = useLocation();
  const before = query.get('before_id');
  const base = `/contracts/${props.contractId}/audit_log`;
  const log = useResource<{ entries: AuditEntry[]; next_before_id: number | null }>(
    `${base}?limit=50${before !== null && /^\d+$/.test(before) ? `&before_id=${before}` : ''}`,
  );
  const pageHref = (beforeId: number | null) =>
    href(`/contracts/${props.contractId}/audit${beforeId === null ? '' : `?before_id=${beforeId}`}`);

  return (
    <Page title={t.auditTitle}>
      <p>{t.auditIntro}</p>
      <ProblemMessage problem={log.problem} />
      {log.data === undefined ? (
        log.problem === undefined && <Loading />
      ) : log.data.entries.length === 0 ? (
        <p>{t.noEntries}</p>
      ) : (
        <>
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">{t.when}</th>
                  <th scope="col">{t.who}</th>
                  <th scope="col">{t.action}</th>
                  <th scope="col">{t.resource}</th>
                  <th scope="col">{t.group}</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <DateTime value={entry.datetime} seconds />
                    </td>
                    <td class="wrap">
                      {entry.actor.kind === 'operator' ? t.operator(entry.actor.via) : entry.actor.email}
                    </td>
                    <td>{entry.action}</td>
                    <td>
                      {entry.resource} {entry.resource_id}
                    </td>
                    <td>{entry.servicegroup_id ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label={t.auditTitle}>
            {before !== null && <a href={pageHref(null)}>{t.newest}</a>}
            {log.data.next_before_id !== null && <a href={pageHref(log.data.next_before_id)}>{t.older}</a>}
          </nav>
        </>
      )}
    </Page>
  );
}
