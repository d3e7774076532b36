/**
 * The configuration of a search service (docs/console.md, Site search): category and drill-down
 * rules as rows, allowed origins, synonyms, content selectors and field weights, each with the
 * service's reason when it is wrong.
 */
import type { ComponentChild } from 'preact';
import type { FieldProblem } from '../api.js';
import { Section } from '../components/page.js';
import { Checkbox, LinesInput, TextInput } from '../settings/form-controls.js';
import { errorText } from '../settings/use-draft-check.js';
import { type ConfigForm, FIELDS } from './config-form.js';
import { searchTexts } from './search-texts.js';

export function ConfigEditor(props: {
  form: ConfigForm;
  set(form: ConfigForm): void;
  errors: readonly FieldProblem[];
  readOnly: boolean;
  /** Shown right after the category and drill-down rules: what they make of the pages. */
  afterRules?: ComponentChild;
}) {
  const t = searchTexts();
  const { form, set, errors } = props;
  const error = (field: string) => errorText(errors, `config.${field}`);
  const bound = <K extends keyof ConfigForm>(key: K) => ({
    value: form[key],
    set: (value: ConfigForm[K]) => set({ ...form, [key]: value }),
  });
  const row = (key: 'categories' | 'drilldowns', index: number, member: 'name' | 'pattern' | 'path') => ({
    value: (form[key][index] as Record<string, string> | undefined)?.[member] ?? '',
    set: (value: string) =>
      set({
        ...form,
        [key]: form[key].map((item, at) => (at === index ? { ...item, [member]: value } : item)),
      }),
  });
  const removeRow = (key: 'categories' | 'drilldowns', index: number) =>
    set({ ...form, [key]: form[key].filter((_, at) => at !== index) });

  return (
    <fieldset class="plain" disabled={props.readOnly}>
      <Section title={t.categories}>
        <p class="hint">{t.categoriesHint}</p>
        {form.categories.map((_, index) => (
          <div class="rule-row" key={`category-${index}`}>
            <TextInput
              id={`category-name-${index}`}
              label={`${t.categoryName} ${index + 1}`}
              error={error(`categories[${index}].name`)}
              bound={row('categories', index, 'name')}
            />
            <TextInput
              id={`category-pattern-${index}`}
              label={`${t.pattern} ${index + 1}`}
              error={error(`categories[${index}].url_pattern`)}
              bound={row('categories', index, 'pattern')}
            />
            <button
              type="button"
              class="button button-small"
              aria-label={t.removeRow(t.categoryName, index)}
              onClick={() => removeRow('categories', index)}
            >
              {t.remove}
            </button>
          </div>
        ))}
        <button
          type="button"
          class="button"
          onClick={() => set({ ...form, categories: [...form.categories, { name: '', pattern: '' }] })}
        >
          {t.addCategory}
        </button>
      </Section>

      <Section title={t.drilldowns}>
        <p class="hint">{t.drilldownsHint}</p>
        {form.drilldowns.map((_, index) => (
          <div class="rule-row" key={`drilldown-${index}`}>
            <TextInput
              id={`drilldown-pattern-${index}`}
              label={`${t.pattern} ${index + 1}`}
              error={error(`drilldowns[${index}].url_pattern`)}
              bound={row('drilldowns', index, 'pattern')}
            />
            <TextInput
              id={`drilldown-path-${index}`}
              label={`${t.path} ${index + 1}`}
              error={error(`drilldowns[${index}].path`)}
              bound={row('drilldowns', index, 'path')}
            />
            <button
              type="button"
              class="button button-small"
              aria-label={t.removeRow(t.drilldowns, index)}
              onClick={() => removeRow('drilldowns', index)}
            >
              {t.remove}
            </button>
          </div>
        ))}
        <button
          type="button"
          class="button"
          onClick={() => set({ ...form, drilldowns: [...form.drilldowns, { pattern: '', path: '' }] })}
        >
          {t.addDrilldown}
        </button>
      </Section>

      {props.afterRules}

      <Section title={t.origins}>
        <LinesInput
          id="allowed-origins"
          label={t.origins}
          hint={t.originsHint}
          error={error('allowed_origins')}
          bound={bound('origins')}
        />
      </Section>

      <Section title={t.synonyms}>
        <Checkbox label={t.starterSet} bound={bound('starterSet')} error={error('synonyms.starter_set')} />
        <LinesInput
          id="synonym-groups"
          label={t.groups}
          hint={t.groupsHint}
          error={error('synonyms.groups')}
          bound={bound('groups')}
        />
        <LinesInput
          id="synonym-rules"
          label={t.rules}
          hint={t.rulesHint}
          error={error('synonyms.rules')}
          bound={bound('rules')}
        />
      </Section>

      <Section title={t.selectors}>
        <div class="form-columns">
          <LinesInput
            id="main-selectors"
            label={t.mainSelectors}
            hint={t.mainHint}
            error={error('content_selectors.main')}
            bound={bound('main')}
          />
          <LinesInput
            id="exclude-selectors"
            label={t.excludeSelectors}
            hint={t.excludeHint}
            error={error('content_selectors.exclude')}
            bound={bound('exclude')}
          />
        </div>
      </Section>

      <Section title={t.weights}>
        <p class="hint">{t.weightsHint}</p>
        <div class="form-grid">
          {FIELDS.map((field) => (
            <TextInput
              key={field}
              id={`weight-${field}`}
              label={t.field(field)}
              inputMode="decimal"
              error={error(`weights.${field}`)}
              bound={{
                value: form.weights[field] ?? '',
                set: (value) => set({ ...form, weights: { ...form.weights, [field]: value } }),
              }}
            />
          ))}
        </div>
      </Section>
    </fieldset>
  );
}
