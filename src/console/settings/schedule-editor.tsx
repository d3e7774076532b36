/**
 * The schedule of a setting (docs/console.md, Setting editor): how often, at what time, and a
 * preview of the next five runs in the service's time zone as the service computes them.
 */
import type { FieldProblem } from '../api.js';
import { Section } from '../components/page.js';
import { dateTime } from '../format.js';
import { useSession } from '../session.js';
import { editorTexts } from './editor-texts.js';
import { type Bound, Choice } from './form-controls.js';
import type { SettingForm } from './setting-form.js';
import { errorText } from './use-draft-check.js';

type ScheduleForm = SettingForm['schedule'];

const numbers = (from: number, to: number, pad = false) =>
  Array.from({ length: to - from + 1 }, (_, index) => {
    const value = String(from + index);
    return { value, label: pad ? value.padStart(2, '0') : value };
  });

export function ScheduleEditor(props: {
  schedule: ScheduleForm;
  set(schedule: ScheduleForm): void;
  errors: readonly FieldProblem[];
  nextRuns: readonly string[];
  valid: boolean;
  paused: boolean;
}) {
  const t = editorTexts();
  const { timezone } = useSession();
  const part = <K extends keyof ScheduleForm>(key: K): Bound<string> => ({
    value: props.schedule[key],
    set: (value) => props.set({ ...props.schedule, [key]: value }),
  });
  const interval = Number(props.schedule.interval);
  const error = (field: string) => errorText(props.errors, `schedule.${field}`);
  return (
    <Section title={t.scheduleTitle}>
      <div class="form-grid">
        <Choice
          id="schedule-interval"
          label={t.interval}
          bound={part('interval')}
          error={error('interval')}
          options={[0, 1, 2, 3, 4].map((value) => ({ value: String(value), label: t.intervalName(value) }))}
        />
        {interval === 3 && (
          <Choice
            id="schedule-day-of-week"
            label={t.dayOfWeek}
            bound={part('dayOfWeek')}
            error={error('day_of_week')}
            options={numbers(0, 6).map((option) => ({
              ...option,
              label: t.weekdayName(Number(option.value)),
            }))}
          />
        )}
        {interval === 4 && (
          <Choice
            id="schedule-day-of-month"
            label={t.dayOfMonth}
            hint={t.dayOfMonthHint}
            bound={part('dayOfMonth')}
            error={error('day_of_month')}
            options={numbers(1, 31)}
          />
        )}
        {interval >= 2 && (
          <Choice
            id="schedule-hour"
            label={t.hour}
            bound={part('hour')}
            error={error('hour')}
            options={numbers(0, 23, true)}
          />
        )}
        {interval >= 1 && (
          <Choice
            id="schedule-minute"
            label={t.minute}
            bound={part('min')}
            error={error('min')}
            options={numbers(0, 59, true)}
          />
        )}
      </div>
      {interval === 0 ? (
        <p class="hint">{t.noRuns}</p>
      ) : !props.valid ? (
        <p class="hint">{t.previewNeedsValid}</p>
      ) : (
        <div>
          <h3 id="next-runs-title">{t.preview(timezone)}</h3>
          {props.paused && <p class="hint">{t.pausedNote}</p>}
          <ol class="next-runs" aria-labelledby="next-runs-title">
            {props.nextRuns.map((run) => (
              <li key={run}>
                <time dateTime={run}>{dateTime(run)}</time>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Section>
  );
}
