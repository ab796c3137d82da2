import { useId } from 'preact/hooks';
import type { FieldModel } from '../lib/schema-form.ts';

interface ParamFieldProps {
  field: FieldModel;
  value: string;
  onInput: (value: string) => void;
  error?: string;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

/** One generated parameter: its input, plus help with type, default, allowed values and docs. */
export function ParamField({ field, value, onInput, error }: ParamFieldProps) {
  const id = useId();
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = error ? `${helpId} ${errorId}` : helpId;
  const common = {
    id,
    name: field.name,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': field.required || undefined,
  };
  const defaultText = field.hasDefault ? `default ${show(field.default)}` : 'not set';

  let input;
  if (field.kind === 'boolean' || field.kind === 'enum') {
    input = (
      <select {...common} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">{field.required ? '— choose —' : `(${defaultText})`}</option>
        {(field.options ?? []).map((o) => (
          <option key={JSON.stringify(o)} value={JSON.stringify(o)}>
            {typeof o === 'string' ? o : JSON.stringify(o)}
          </option>
        ))}
        {field.nullable ? <option value="null">null</option> : null}
      </select>
    );
  } else if (field.kind === 'json') {
    input = (
      <textarea
        {...common}
        class="code"
        rows={2}
        value={value}
        spellcheck={false}
        placeholder={field.hasDefault ? JSON.stringify(field.default) : 'JSON value or text'}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  } else {
    const numeric = field.kind === 'number' || field.kind === 'integer';
    input = (
      <input
        {...common}
        type="text"
        inputMode={numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        value={value}
        spellcheck={false}
        autoComplete="off"
        placeholder={field.hasDefault ? String(field.default) : undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }

  return (
    <div class="field param">
      <div class="param-head">
        <label for={id} class="param-name">
          {field.name}
        </label>
        <span class="badge badge-type">{field.typeLabel}</span>
        {field.required ? <span class="badge badge-required">required</span> : null}
      </div>
      {input}
      <div id={helpId} class="hint param-help">
        {field.description ? <p>{field.description}</p> : null}
        <dl class="param-facts">
          <div>
            <dt>Default</dt>
            <dd>
              {field.hasDefault ? (
                <code>{show(field.default)}</code>
              ) : field.required ? (
                'none (required)'
              ) : (
                'none'
              )}
            </dd>
          </div>
          {field.options && field.kind === 'enum' ? (
            <div>
              <dt>Allowed</dt>
              <dd>{field.options.map((o) => show(o)).join(', ')}</dd>
            </div>
          ) : null}
          {field.range ? (
            <div>
              <dt>Range</dt>
              <dd>{field.range}</dd>
            </div>
          ) : null}
        </dl>
      </div>
      {error ? (
        <p id={errorId} class="field-error">
          {field.name} {error}
        </p>
      ) : null}
    </div>
  );
}
