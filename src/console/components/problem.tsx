/**
 * A failed call, said to a person: the API's message (which names the field and the reason), and
 * for a 429 when to try again. Announced by screen readers as it appears.
 */
import type { ApiProblem } from '../api.js';
import { defineTexts } from '../i18n.js';

const texts = defineTexts({
  en: {
    retry: (seconds: number) => `Try again in ${seconds} s.`,
    notFound: 'This page does not exist, or your account cannot see it.',
    forbidden: 'Your role does not allow this.',
  },
  ja: {
    retry: (seconds: number) => `${seconds} 秒後にもう一度お試しください。`,
    notFound: 'このページは存在しないか、このアカウントでは表示できません。',
    forbidden: 'このロールでは実行できません。',
  },
});

export function ProblemMessage(props: { problem: ApiProblem | undefined }) {
  const t = texts();
  const { problem } = props;
  if (problem === undefined) return null;
  return (
    <div class="problem" role="alert">
      {problem.status === 404 && <p>{t.notFound}</p>}
      {problem.status === 403 && <p>{t.forbidden}</p>}
      <p>{problem.message}</p>
      {problem.retryAfterSeconds !== null && <p>{t.retry(problem.retryAfterSeconds)}</p>}
    </div>
  );
}

/** The busy line while a page reads its data. */
export function Loading(props: { label?: string }) {
  return (
    <p class="loading" role="status">
      {props.label ?? '…'}
    </p>
  );
}
