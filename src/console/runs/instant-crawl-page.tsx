/**
 * Starting an instant crawl from the console (docs/console.md, Runs): the setting editor's fields
 * and pattern tester, checked by the service as the person types, then POST …/runs and the run's
 * page with its live progress.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem, type FieldProblem, groupPath, problemOf } from '../api.js';
import { Page } from '../components/page.js';
import { ProblemMessage } from '../components/problem.js';
import { href, navigate } from '../router.js';
import { groupHref } from '../shell/route-types.js';
import type { Bound } from '../settings/form-controls.js';
import { PatternTester } from '../settings/pattern-tester.js';
import { SettingFields } from '../settings/setting-fields.js';
import { bodyOf, EMPTY_FORM, type SettingForm } from '../settings/setting-form.js';
import { useDraftCheck } from '../settings/use-draft-check.js';
import type { RunView } from './run-types.js';
import { runsTexts } from './runs-texts.js';
import { textLines } from '../text-lines.js';

/** The crawler setting of the form, checked as a setting that runs only by hand. */
const draftOf = (form: SettingForm) => ({ setting: bodyOf(form).setting, schedule: { interval: 0 } });

export function InstantCrawlPage(props: { contractId: number; groupId: number }) {
  const t = runsTexts();
  const group = groupPath(props.contractId, props.groupId);
  const [form, setForm] = useState<SettingForm>({
    ...EMPTY_FORM,
    schedule: { ...EMPTY_FORM.schedule, interval: '0' },
  });
  const [changed, setChanged] = useState(false);
  const [testUrls, setTestUrls] = useState('');
  const [saveErrors, setSaveErrors] = useState<readonly FieldProblem[] | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>(undefined);
  const urls = textLines(testUrls);
  const check = useDraftCheck(`${group}/service_settings/check`, changed ? draftOf(form) : undefined, urls);
  const errors = saveErrors ?? check.errors;

  const bind = <K extends keyof SettingForm>(key: K): Bound<SettingForm[K]> => ({
    value: form[key],
    set: (value) => {
      setForm((previous) => ({ ...previous, [key]: value }));
      setChanged(true);
      setSaveErrors(undefined);
    },
  });

  const start = async (event: Event) => {
    event.preventDefault();
    setStarting(true);
    setProblem(undefined);
    try {
      const answer = await api.post<{ run: RunView }>(`${group}/runs`, { setting: draftOf(form).setting });
      navigate(groupHref(props.contractId, props.groupId, `/runs/${answer.run.id}`));
    } catch (error) {
      const failed = problemOf(error);
      if (failed.status === 400) setSaveErrors(failed.errors);
      else setProblem(failed);
      setStarting(false);
    }
  };

  return (
    <Page
      title={t.formTitle}
      actions={
        <a class="button" href={href(groupHref(props.contractId, props.groupId, '/runs'))}>
          {t.title}
        </a>
      }
    >
      <p>{t.formIntro}</p>
      <ProblemMessage problem={problem ?? check.problem} />
      <form onSubmit={(event) => void start(event)} noValidate>
        <SettingFields
          bind={bind}
          errors={errors}
          services={[]}
          instant
          readOnly={false}
          schedule={null}
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
        />
        <div class="form-footer">
          <button type="submit" class="button button-primary" disabled={starting}>
            {starting ? t.starting : t.start}
          </button>
        </div>
      </form>
    </Page>
  );
}
