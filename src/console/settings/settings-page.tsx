/**
 * A service group's crawl settings (docs/console.md, Crawl settings): each with its seeds, its
 * schedule in words, the next run in the service's time zone and whether a run is in progress;
 * editors start a run now and delete a setting after confirming (docs/api.md, Roles).
 */
import { useState } from 'preact/hooks';
import { api, ApiProblem, groupPath, problemOf } from '../api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { groupHref } from '../shell/route-types.js';
import { useCan } from '../session.js';
import { useResource } from '../use-resource.js';
import { type ScheduleWords, settingsTexts } from './settings-texts.js';
import { DateTime } from '../components/date-time.js';
import { UrlText } from '../components/url-text.js';

interface ServiceSetting {
  id: number;
  name: string;
  setting: { seed_urls: string[] };
  schedule: ScheduleWords;
  next_run_datetime: string | null;
  paused_datetime: string | null;
  active_run_id: number | null;
}

export function SettingsPage(props: { contractId: number; groupId: number }) {
  const t = settingsTexts();
  const base = `${groupPath(props.contractId, props.groupId)}/service_settings`;
  const settings = useResource<{ service_settings: ServiceSetting[] }>(base);
  const isEditor = useCan('editor');
  const [removing, setRemoving] = useState<ServiceSetting | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const act = async (action: () => Promise<void>) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(problemOf(error));
    }
    settings.reload();
  };
  const runNow = (row: ServiceSetting) =>
    act(async () => {
      const answer = await api.post<{ run_id: number }>(`${base}/${row.id}/run`);
      setNotice(t.started(row.name, answer.run_id));
    });
  const pauseOrResume = (row: ServiceSetting) =>
    act(async () => {
      const resuming = row.paused_datetime !== null;
      await api.post(`${base}/${row.id}/${resuming ? 'resume' : 'pause'}`);
      setNotice(resuming ? t.resumed(row.name) : t.paused(row.name));
    });
  const remove = (row: ServiceSetting) => {
    setRemoving(undefined);
    return act(() => api.delete(`${base}/${row.id}`));
  };

  return (
    <Page
      title={t.title}
      actions={
        isEditor && (
          <a
            class="button button-primary"
            href={`/console${groupHref(props.contractId, props.groupId, '/settings/new')}`}
          >
            {t.create}
          </a>
        )
      }
    >
      <p>{t.intro}</p>
      {!isEditor && <p class="hint">{t.editorsOnly}</p>}
      <ProblemMessage problem={problem ?? settings.problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {settings.data === undefined ? (
        settings.problem === undefined && <Loading />
      ) : settings.data.service_settings.length === 0 ? (
        <div class="section">
          <p>{t.empty}</p>
          <p class="hint">{t.emptyHint}</p>
        </div>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.seeds}</th>
                <th scope="col">{t.schedule}</th>
                <th scope="col">{t.nextRun}</th>
                <th scope="col">{t.state}</th>
                {isEditor && (
                  <th scope="col">
                    <span class="visually-hidden">{t.runNow}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {settings.data.service_settings.map((row) => (
                <tr key={row.id}>
                  <td class="wrap">
                    <a href={`/console${groupHref(props.contractId, props.groupId, `/settings/${row.id}`)}`}>
                      {row.name}
                    </a>
                  </td>
                  <td class="wrap">
                    <UrlText url={row.setting.seed_urls[0] ?? ''} />
                    {row.setting.seed_urls.length > 1 && (
                      <span class="hint"> {t.moreSeeds(row.setting.seed_urls.length - 1)}</span>
                    )}
                  </td>
                  <td>
                    {t.scheduleText(row.schedule)}
                    {row.paused_datetime !== null && <span class="badge badge-paused">{t.pausedBadge}</span>}
                  </td>
                  <td>
                    <DateTime value={row.next_run_datetime} />
                  </td>
                  <td>
                    {row.active_run_id === null ? (
                      <span class="badge">{t.idle}</span>
                    ) : (
                      <span class="badge badge-running nowrap">
                        {t.running} ({row.active_run_id})
                      </span>
                    )}
                  </td>
                  {isEditor && (
                    <td>
                      <div class="section-actions">
                        <button
                          type="button"
                          class="button button-small"
                          aria-label={`${t.runNow}: ${row.name}`}
                          disabled={row.active_run_id !== null}
                          onClick={() => void runNow(row)}
                        >
                          {t.runNow}
                        </button>
                        {row.schedule.interval !== 0 && (
                          <button
                            type="button"
                            class="button button-small"
                            aria-label={`${row.paused_datetime === null ? t.pause : t.resume}: ${row.name}`}
                            onClick={() => void pauseOrResume(row)}
                          >
                            {row.paused_datetime === null ? t.pause : t.resume}
                          </button>
                        )}
                        <button
                          type="button"
                          class="button button-small"
                          aria-label={`${t.remove}: ${row.name}`}
                          onClick={() => setRemoving(row)}
                        >
                          {t.remove}
                        </button>
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={removing !== undefined}
        title={t.removeTitle}
        message={t.removeMessage(removing?.name ?? '')}
        confirmLabel={t.remove}
        onConfirm={() => removing !== undefined && void remove(removing)}
        onCancel={() => setRemoving(undefined)}
      />
    </Page>
  );
}
