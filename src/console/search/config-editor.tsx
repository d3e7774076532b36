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

  return (
    <fieldset class="plain" disabled={props.readOnly}>
      <RuleRows
        title={t.categories}
        hint={t.categoriesHint}
        rows={form.categories}
        columns={[
          { member: 'name', id: 'category-name', label: t.categoryName, field: 'name' },
          { member: 'pattern', id: 'category-pattern', label: t.pattern, field: 'url_pattern' },
        ]}
        errorOf={(index, field) => error(`categories[${index}].${field}`)}
        removeLabel={(index) => t.removeRow(t.categoryName, index)}
        addLabel={t.addCategory}
        empty={{ name: '', pattern: '' }}
        set={(categories) => set({ ...form, categories })}
      />

      <RuleRows
        title={t.drilldowns}
        hint={t.drilldownsHint}
        rows={form.drilldowns}
        columns={[
          { member: 'pattern', id: 'drilldown-pattern', label: t.pattern, field: 'url_pattern' },
          { member: 'path', id: 'drilldown-path', label: t.path, field: 'path' },
        ]}
        errorOf={(index, field) => error(`drilldowns[${index}].${field}`)}
        removeLabel={(index) => t.removeRow(t.drilldowns, index)}
        addLabel={t.addDrilldown}
        empty={{ pattern: '', path: '' }}
        set={(drilldowns) => set({ ...form, drilldowns })}
      />

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

/**
 * Rules edited as rows of text boxes (categories, drill-down rules): each row's boxes with the
 * service's reasons, a Remove button per row, and Add at the end.
 */
function RuleRows<Row extends Record<string, string>>(props: {
  title: string;
  hint: string;
  rows: readonly Row[];
  columns: readonly { member: keyof Row & string; id: string; label: string; field: string }[];
  errorOf(index: number, field: string): string | undefined;
  removeLabel(index: number): string;
  addLabel: string;
  empty: Row;
  set(rows: Row[]): void;
}) {
  const t = searchTexts();
  const { rows } = props;
  return (
    <Section title={props.title}>
      <p class="hint">{props.hint}</p>
      {rows.map((row, index) => (
        <div class="rule-row" key={`${props.columns[0]!.id}-${index}`}>
          {props.columns.map((column) => (
            <TextInput
              key={column.id}
              id={`${column.id}-${index}`}
              label={`${column.label} ${index + 1}`}
              error={props.errorOf(index, column.field)}
              bound={{
                value: row[column.member] ?? '',
                set: (value) =>
                  props.set(
                    rows.map((item, at) => (at === index ? { ...item, [column.member]: value } : item)),
                  ),
              }}
            />
          ))}
          <button
            type="button"
            class="button button-small"
            aria-label={props.removeLabel(index)}
            onClick={() => props.set(rows.filter((_, at) => at !== index))}
          >
            {t.remove}
          </button>
        </div>
      ))}
      <button type="button" class="button" onClick={() => props.set([...rows, { ...props.empty }])}>
        {props.addLabel}
      </button>
    </Section>
  );
}
