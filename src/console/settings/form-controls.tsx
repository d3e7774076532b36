/**
 * The editor's controls bound to one member of its form: a text box, a list (one value per
 * line), a choice, a checkbox. Each shows the service's reason for its field (errorText).
 */
import type { ComponentChildren } from 'preact';
import { Field } from '../components/field.js';

export interface Bound<T> {
  value: T;
  set(value: T): void;
}

export function TextInput(props: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error: string | undefined;
  bound: Bound<string>;
  inputMode?: 'numeric' | 'decimal' | 'url' | 'text';
  type?: 'text' | 'password';
  autoComplete?: string;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      <input
        type={props.type ?? 'text'}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete ?? 'off'}
        spellcheck={false}
        value={props.bound.value}
        onInput={(event) => props.bound.set(event.currentTarget.value)}
      />
    </Field>
  );
}

export function LinesInput(props: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error: string | undefined;
  bound: Bound<string>;
  rows?: number;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      <textarea
        rows={props.rows ?? 3}
        spellcheck={false}
        autoComplete="off"
        value={props.bound.value}
        onInput={(event) => props.bound.set(event.currentTarget.value)}
      />
    </Field>
  );
}

export function Choice(props: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  bound: Bound<string>;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error}>
      <select value={props.bound.value} onChange={(event) => props.bound.set(event.currentTarget.value)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function Checkbox(props: {
  label: string;
  bound: Bound<boolean>;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <div class="field field-check">
      <label class="checkbox">
        <input
          type="checkbox"
          checked={props.bound.value}
          onChange={(event) => props.bound.set(event.currentTarget.checked)}
        />
        {props.label}
      </label>
      {props.hint !== undefined && <p class="hint">{props.hint}</p>}
      {props.error && <p class="field-error">{props.error}</p>}
    </div>
  );
}
