import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

interface TextFieldProps {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'password' | 'number' | 'search';
  name?: string;
  autoComplete?: string;
  required?: boolean;
  error?: string;
  hint?: ComponentChildren;
  placeholder?: string;
  min?: number;
  step?: string;
  autoFocus?: boolean;
}

/** A labelled input with an optional hint and a validation message tied to it for screen readers. */
export function TextField(props: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean);
  return (
    <div class="field">
      <label for={id}>
        {props.label}
        {props.required ? null : <span class="optional"> (optional)</span>}
      </label>
      <input
        id={id}
        name={props.name}
        // Preact's input typings are a union keyed on the literal type: tsc needs this cast for a
        // variable type even though the lint rule's own check thinks otherwise.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        autoComplete={props.autoComplete}
        required={props.required}
        placeholder={props.placeholder}
        min={props.min}
        step={props.step}
        autoFocus={props.autoFocus}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described.length ? described.join(' ') : undefined}
      />
      {props.hint ? (
        <p id={hintId} class="hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} class="field-error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
