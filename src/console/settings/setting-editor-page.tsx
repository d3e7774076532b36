/**
 * Creating and editing a crawl service setting (docs/console.md, Setting editor): every field of
 * the crawler setting, the schedule with its next runs, the search service it feeds and a pattern
 * tester, all checked by the service as the person types. Viewers read it and test URLs.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type ApiProblem, type FieldProblem, groupPath, problemOf } from '../api.js';
import { Page } from '../components/page.js';
import { Loading, ProblemMessage } from '../components/problem.js';
import { navigate } from '../router.js';
import { groupHref } from '../shell/route-types.js';
import { useCan } from '../session.js';
import { useResource } from '../use-resource.js';
import { editorTexts } from './editor-texts.js';
import type { Bound } from './form-controls.js';
import { PatternTester } from './pattern-tester.js';
import { ScheduleEditor } from './schedule-editor.js';
import { SettingFields } from './setting-fields.js';
import { bodyOf, EMPTY_FORM, formOf, type ServiceSettingView, type SettingForm } from './setting-form.js';
import { useDraftCheck } from './use-draft-check.js';
import { textLines } from '../text-lines.js';

export function SettingEditorPage(props: { contractId: number; groupId: number; settingId?: number }) {
  const t = editorTexts();
  const { contractId, groupId, settingId } = props;
  const base = `${groupPath(contractId, groupId)}/service_settings`;
  const stored = useResource<{ service_setting: ServiceSettingView }>(
    settingId === undefined ? null : `${base}/${settingId}`,
  );
  const services = useResource<{ search_services: { id: number; name: string }[] }>(
    `${groupPath(contractId, groupId)}/search_services`,
  );
  const canEdit = useCan('editor');
  const [form, setForm] = useState<SettingForm | undefined>(settingId === undefined ? EMPTY_FORM : undefined);
  const [changed, setChanged] = useState(false);
  const [testUrls, setTestUrls] = useState('');
  const [saveErrors, setSaveErrors] = useState<readonly FieldProblem[] | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [starting, setStarting] = useState(false);
  // Fields changed since the last save (test URLs typed into the pattern tester are no change).
  const [unsaved, setUnsaved] = useState(false);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);

  const view = stored.data?.service_setting;
  useEffect(() => {
    if (view !== undefined) setForm(formOf(view));
  }, [view]);

  // An existing setting is checked at once (its next runs show); a new one from its first change.
  const checking = form !== undefined && (settingId !== undefined || changed);
  const urls = textLines(testUrls);
  const check = useDraftCheck(
    settingId === undefined ? `${base}/check` : `${base}/${settingId}/check`,
    checking ? bodyOf(form) : undefined,
    urls,
  );
  const errors = saveErrors ?? check.errors;

  const bind = <K extends keyof SettingForm>(key: K): Bound<SettingForm[K]> => ({
    value: (form ?? EMPTY_FORM)[key],
    set: (value) => {
      setForm((previous) => ({ ...(previous ?? EMPTY_FORM), [key]: value }));
      setChanged(true);
      setUnsaved(true);
      setSaveErrors(undefined);
      setNotice(undefined);
    },
  });

  const save = async (event: Event) => {
    event.preventDefault();
    if (form === undefined) return;
    setSaving(true);
    setProblem(undefined);
    setNotice(undefined);
    try {
      if (settingId === undefined) {
        const created = await api.post<{ service_setting_id: number }>(base, bodyOf(form));
        navigate(groupHref(contractId, groupId, `/settings/${created.service_setting_id}?saved=1`), {
          replace: true,
        });
        return;
      }
      const answer = await api.put<{ service_setting: ServiceSettingView }>(
        `${base}/${settingId}`,
        bodyOf(form),
      );
      setForm(formOf(answer.service_setting));
      setChanged(false);
      setUnsaved(false);
      setSaveErrors(undefined);
      setNotice(t.saved);
    } catch (error) {
      const failed = problemOf(error);
      if (failed.status === 400) setSaveErrors(failed.errors);
      else setProblem(failed);
    } finally {
      setSaving(false);
    }
  };

  // Runs the setting as saved, then shows the run (docs/console.md, Setting editor).
  const runNow = async () => {
    if (settingId === undefined) return;
    setStarting(true);
    setProblem(undefined);
    try {
      const answer = await api.post<{ run_id: number }>(`${base}/${settingId}/run`);
      navigate(groupHref(contractId, groupId, `/runs/${answer.run_id}`));
    } catch (error) {
      setProblem(problemOf(error));
      setStarting(false);
    }
  };

  const title = settingId === undefined ? t.newTitle : t.editTitle(view?.name ?? String(settingId));
  const savedNow =
    notice ?? (new URLSearchParams(location.search).has('saved') && !changed ? t.saved : undefined);
  return (
    <Page
      title={title}
      actions={
        <>
          <a class="button" href={`/console${groupHref(contractId, groupId, '/settings')}`}>
            {t.back}
          </a>
          {canEdit && settingId !== undefined && view !== undefined && (
            <button
              type="button"
              class="button button-primary"
              disabled={starting || unsaved}
              title={unsaved ? t.runSavedFirst : undefined}
              onClick={() => void runNow()}
            >
              {starting ? t.runningNow : t.runNow}
            </button>
          )}
        </>
      }
    >
      <p>{canEdit ? t.intro : t.readOnly}</p>
      <ProblemMessage problem={problem ?? stored.problem ?? check.problem} />
      {form === undefined ? (
        stored.problem === undefined && <Loading />
      ) : (
        <form onSubmit={(event) => void save(event)} noValidate>
          <ErrorSummary errors={saveErrors ?? []} />
          <SettingFields
            bind={bind}
            errors={errors}
            services={services.data?.search_services ?? []}
            patternTester={
              <PatternTester
                urls={{
                  value: testUrls,
                  set: (value) => {
                    setTestUrls(value);
                    setChanged(true);
                  },
                }}
                checks={check.urlChecks}
                valid={check.valid && !check.checking}
                hasUrls={urls.length > 0}
              />
            }
            schedule={
              <ScheduleEditor
                schedule={form.schedule}
                set={(schedule) => bind('schedule').set(schedule)}
                errors={errors}
                nextRuns={check.nextRuns}
                valid={check.valid}
                paused={view?.paused_datetime != null}
              />
            }
            readOnly={!canEdit}
          />
          {canEdit && (
            <div class="form-footer">
              <button type="submit" class="button button-primary" disabled={saving}>
                {saving ? t.saving : settingId === undefined ? t.create : t.save}
              </button>
              <span class="hint" aria-live="polite">
                {check.checking ? t.checking : check.valid ? t.valid : ''}
              </span>
              {savedNow !== undefined && (
                <p class="notice" role="status">
                  {savedNow}
                </p>
              )}
            </div>
          )}
        </form>
      )}
    </Page>
  );
}

/** After a refused save: how many fields, and each with the API's reason. */
function ErrorSummary(props: { errors: readonly FieldProblem[] }) {
  const t = editorTexts();
  if (props.errors.length === 0) return null;
  return (
    <div class="problem" role="alert">
      <p>{t.problems(props.errors.length)}</p>
      <ul>
        {props.errors.map((error) => (
          <li key={`${error.field}-${error.reason}`}>
            <code>{error.field.replace(/^body\./, '')}</code>: {error.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
