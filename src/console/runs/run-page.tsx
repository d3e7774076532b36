/**
 * One run (docs/console.md, Run page): its live progress pushed by the service while it runs,
 * Cancel for editors, and once it has ended its downloads, failures by kind, URL table and
 * screenshots.
 */
import { useState } from 'preact/hooks';
import { api, API_BASE, type ApiProblem, groupPath, problemOf } from '../api.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Page, Section } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { dateTime } from '../format.js';
import { href } from '../router.js';
import { useCan } from '../session.js';
import { groupHref } from '../shell/route-types.js';
import { useResource } from '../use-resource.js';
import { RunProgress } from './run-progress.js';
import { runMessageText } from './run-message.js';
import { RunStateBadge } from './run-state-badge.js';
import { isActive, type RunView } from './run-types.js';
import { RunUrls } from './run-urls.js';
import { runsTexts } from './runs-texts.js';
import { ScreenshotGallery } from './screenshot-gallery.js';
import { useRunEvents } from './use-run-events.js';

export function RunPage(props: { contractId: number; groupId: number; runId: number }) {
  const t = runsTexts();
  const runPath = `${groupPath(props.contractId, props.groupId)}/runs/${props.runId}`;
  const read = useResource<{ run: RunView }>(runPath);
  const run = useRunEvents(runPath, read.data?.run);
  const canCancel = useCan('editor');
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const cancel = async () => {
    setConfirming(false);
    try {
      await api.post(`${runPath}/cancel`);
      setNotice(t.cancelRequested);
    } catch (error) {
      setProblem(problemOf(error));
    }
  };

  const title = t.runTitle(props.runId);
  if (run === undefined) {
    return (
      <Page title={title}>
        <ProblemMessage problem={read.problem} />
        {read.problem === undefined && <Loading />}
      </Page>
    );
  }
  const running = isActive(run);
  const what =
    run.kind === 'instant'
      ? t.instant
      : `${run.service_setting_name ?? t.scheduled} · ${t.byTrigger(run.trigger)}`;
  return (
    <Page
      title={title}
      context={
        <>
          {what} · <RunStateBadge state={run.crawl_execution_status_dtype_id} />
        </>
      }
      actions={
        <>
          <a class="button" href={href(groupHref(props.contractId, props.groupId, '/runs'))}>
            {t.title}
          </a>
          {running && canCancel && (
            <button
              type="button"
              class="button button-danger"
              disabled={run.is_cancel_request}
              onClick={() => setConfirming(true)}
            >
              {t.cancel}
            </button>
          )}
        </>
      }
    >
      <ProblemMessage problem={problem} />
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <dl class="facts">
        <dt>{t.started}</dt>
        <dd>{dateTime(run.start_datetime ?? run.created_datetime, { seconds: true })}</dd>
        <dt>{t.endedAt}</dt>
        <dd>{dateTime(run.end_datetime, { seconds: true })}</dd>
        <dt>{t.seeds}</dt>
        <dd class="wrap">{run.seed_urls.join(' · ')}</dd>
        {!running && run.end_reason !== null && (
          <>
            <dt>{t.endReasonLabel}</dt>
            <dd>{t.endReason(run.end_reason)}</dd>
          </>
        )}
        {run.message !== '' && (
          <>
            <dt>{t.message}</dt>
            <dd class="wrap">{runMessageText(run.message, run.message_parts)}</dd>
          </>
        )}
      </dl>
      <RunProgress run={run} />
      {!running && (
        <>
          <Section title={t.downloads}>
            {run.artifacts.length === 0 ? (
              <p>{t.noDownloads}</p>
            ) : (
              <ul class="downloads">
                {run.artifacts.map((file) => (
                  <li key={file}>
                    <a class="button" href={`${API_BASE}${runPath}/files/${file}`} download>
                      {file}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <RunUrls runPath={runPath} />
          <ScreenshotGallery runPath={runPath} takesScreenshots={run.screenshots} />
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={t.cancelTitle}
        message={t.cancelMessage}
        confirmLabel={t.cancel}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirming(false)}
      />
    </Page>
  );
}
