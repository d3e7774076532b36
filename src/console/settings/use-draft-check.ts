/**
 * Checks the editor's draft with the service as a person types (POST …/service_settings/check,
 * docs/api.md): the field errors the API would answer on save, the next run times of the schedule
 * and the pattern tester's verdicts. One schema, the server's: the console has no rules of its own.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem, api, type FieldProblem, problemOf } from '../api.js';

export interface UrlCheck {
  url: string;
  verdict: string;
  pattern: string | null;
}

export interface DraftCheck {
  /** A check is on its way (the draft changed since the last answer). */
  checking: boolean;
  /** The last answer's field errors; empty when the draft is valid. */
  errors: readonly FieldProblem[];
  /** The last valid draft's coming runs, and its verdicts of the test URLs. */
  nextRuns: readonly string[];
  urlChecks: readonly UrlCheck[];
  /** The draft checked last was valid. */
  valid: boolean;
  /** A failure other than a bad draft (the service unreachable, the session ended). */
  problem: ApiProblem | undefined;
}

/** How long typing pauses before the draft is sent. */
const PAUSE_MS = 300;

const INITIAL: DraftCheck = {
  checking: false,
  errors: [],
  nextRuns: [],
  urlChecks: [],
  valid: false,
  problem: undefined,
};

/**
 * `checkPath`: …/service_settings/check or …/service_settings/{id}/check; `body` undefined: not
 * yet (a new setting is checked from its first change, so an empty form shows no errors).
 */
export function useDraftCheck(
  checkPath: string,
  body: Record<string, unknown> | undefined,
  testUrls: readonly string[],
): DraftCheck {
  const [state, setState] = useState<DraftCheck>(INITIAL);
  const latest = useRef(0);
  const key = body === undefined ? '' : JSON.stringify([body, testUrls]);

  useEffect(() => {
    if (body === undefined) return;
    const ticket = ++latest.current;
    setState((previous) => ({ ...previous, checking: true }));
    const timer = setTimeout(() => {
      const query = testUrls.map((url) => `test_url=${encodeURIComponent(url)}`).join('&');
      api
        .post<{ next_run_datetimes: string[]; url_checks: UrlCheck[] }>(
          query === '' ? checkPath : `${checkPath}?${query}`,
          body,
        )
        .then((answer) => {
          if (ticket !== latest.current) return;
          setState({
            checking: false,
            errors: [],
            nextRuns: answer.next_run_datetimes,
            urlChecks: answer.url_checks,
            valid: true,
            problem: undefined,
          });
        })
        .catch((error: unknown) => {
          if (ticket !== latest.current) return;
          const problem = problemOf(error);
          if (problem.status === 400) {
            setState({
              ...INITIAL,
              errors: problem.errors.length > 0 ? problem.errors : [{ field: '', reason: problem.message }],
            });
          } else {
            setState((previous) => ({ ...previous, checking: false, problem }));
          }
        });
    }, PAUSE_MS);
    return () => clearTimeout(timer);
    // `key` stands for body and testUrls, whose identity changes on every render.
  }, [checkPath, key]);

  return state;
}

/**
 * The errors of a field and its parts, as one text: `setting.seed_urls` also takes
 * `setting.seed_urls[2]`, written with the value at that position (`ftp://…: must match …`);
 * `exact` takes the field alone (its parts have controls of their own).
 */
export function errorText(
  errors: readonly FieldProblem[],
  field: string,
  options: {
    items?: readonly string[];
    item?: (value: string, reason: string) => string;
    exact?: boolean;
  } = {},
): string | undefined {
  const item = options.item ?? ((value: string, reason: string) => `${value}: ${reason}`);
  const texts: string[] = [];
  for (const error of errors) {
    const name = error.field.replace(/^body\./, '');
    if (name === field || (!options.exact && name.startsWith(`${field}.`))) texts.push(error.reason);
    else if (!options.exact && name.startsWith(`${field}[`)) {
      const index = Number(/^\[(\d+)\]/.exec(name.slice(field.length))?.[1]);
      const value = options.items?.[index];
      texts.push(value === undefined ? error.reason : item(value, error.reason));
    }
  }
  return texts.length === 0 ? undefined : texts.join(' · ');
}
