/**
 * "Would this URL be crawled?" (docs/console.md, Setting editor): URLs checked by the service
 * against the draft as it is now, with the allow / deny pattern or the seed site that decided.
 */
import { Section } from '../components/page.js';
import { editorTexts } from './editor-texts.js';
import { type Bound, LinesInput } from './form-controls.js';
import type { UrlCheck } from './use-draft-check.js';

export function PatternTester(props: {
  urls: Bound<string>;
  checks: readonly UrlCheck[];
  valid: boolean;
  hasUrls: boolean;
}) {
  const t = editorTexts();
  return (
    <Section title={t.tester}>
      <LinesInput
        id="tester-urls"
        label={t.testerUrls}
        hint={t.testerHint}
        error={undefined}
        bound={props.urls}
      />
      {props.hasUrls && !props.valid && <p class="hint">{t.testerFixFirst}</p>}
      {props.hasUrls && props.valid && (
        <ul class="verdicts" aria-live="polite">
          {props.checks.map((check, index) => (
            <li
              key={`${index}-${check.url}`}
              class={check.verdict === 'crawled' ? 'verdict verdict-in' : 'verdict verdict-out'}
            >
              <span class="verdict-url">{check.url}</span>
              <span class="verdict-text">
                {t.verdict(check.verdict)}
                {check.pattern !== null
                  ? ` (${t.byPattern(check.pattern)})`
                  : check.verdict === 'crawled'
                    ? ` (${t.bySeed})`
                    : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
