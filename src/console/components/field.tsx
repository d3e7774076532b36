/**
 * A labelled form control with its hint and its error: the error is the API's reason for the
 * field (docs/api.md, Common rules), tied to the control by aria-describedby and
 * aria-invalid so it is read with the control.
 */
import type { ComponentChildren } from 'preact';
import { cloneElement, isValidElement, type VNode } from 'preact';

let nextId = 0;
/** A page-unique id for a control and its texts. */
export function uniqueId(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

export function Field(props: {
  id: string;
  label: string;
  hint?: ComponentChildren;
  error?: string | undefined;
  children: VNode;
}) {
  const hintId = `${props.id}-hint`;
  const errorId = `${props.id}-error`;
  const described = [props.hint !== undefined ? hintId : '', props.error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  const control = isValidElement(props.children)
    ? cloneElement(props.children, {
        id: props.id,
        'aria-invalid': props.error ? 'true' : undefined,
        'aria-describedby': described === '' ? undefined : described,
      })
    : props.children;
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {control}
      {props.hint !== undefined && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}
