import { useId } from 'preact/hooks';
import type { FormModel, FormValues } from '../lib/schema-form.ts';
import { ParamField } from './param-field.tsx';

export type ParamsMode = 'form' | 'json';

interface ParamsEditorProps {
  model: FormModel | undefined;
  mode: ParamsMode;
  onMode: (mode: ParamsMode) => void;
  values: FormValues;
  onValues: (values: FormValues) => void;
  raw: string;
  onRaw: (raw: string) => void;
  errors: Record<string, string>;
}

/** The arguments of a run: the form generated from the action's schema, or raw JSON. */
export function ParamsEditor(props: ParamsEditorProps) {
  const { model, mode, values, errors } = props;
  const id = useId();
  const formAvailable = model !== undefined;
  const current = formAvailable ? mode : 'json';
  const setField = (name: string, text: string) =>
    props.onValues({ ...values, fields: { ...values.fields, [name]: text } });

  return (
    <section class="card params" aria-labelledby={`${id}-title`}>
      <div class="card-head">
        <h2 id={`${id}-title`}>Parameters</h2>
        <div class="segmented" role="group" aria-label="Parameter editor">
          <button
            type="button"
            aria-pressed={current === 'form'}
            disabled={!formAvailable}
            onClick={() => props.onMode('form')}
          >
            Form
          </button>
          <button
            type="button"
            aria-pressed={current === 'json'}
            onClick={() => props.onMode('json')}
          >
            Raw JSON
          </button>
        </div>
      </div>
      {current === 'json' ? (
        <div class="field">
          <label for={`${id}-raw`}>Arguments (JSON object)</label>
          <textarea
            id={`${id}-raw`}
            class="code"
            rows={8}
            spellcheck={false}
            value={props.raw}
            aria-invalid={errors['*raw'] ? true : undefined}
            aria-describedby={errors['*raw'] ? `${id}-raw-error` : undefined}
            onInput={(e) => props.onRaw(e.currentTarget.value)}
          />
          {errors['*raw'] ? (
            <p id={`${id}-raw-error`} class="field-error">
              {errors['*raw']}
            </p>
          ) : null}
        </div>
      ) : (
        <>
          {model!.fields.length === 0 && !model!.extraArgs ? (
            <p class="muted">This action takes no parameters.</p>
          ) : null}
          <div class="param-grid">
            {model!.fields.map((f) => (
              <ParamField
                key={f.name}
                field={f}
                value={values.fields[f.name] ?? ''}
                onInput={(t) => setField(f.name, t)}
                error={errors[f.name]}
              />
            ))}
          </div>
          {model!.extraArgs || values.extra ? (
            <div class="field">
              <label for={`${id}-extra`}>
                {model!.fields.length ? 'Extra arguments' : 'Arguments'} (JSON object)
              </label>
              <textarea
                id={`${id}-extra`}
                class="code"
                rows={4}
                spellcheck={false}
                placeholder='{"name": "value"}'
                value={values.extra}
                aria-invalid={errors['*extra'] ? true : undefined}
                aria-describedby={`${id}-extra-hint`}
                onInput={(e) => props.onValues({ ...values, extra: e.currentTarget.value })}
              />
              <p id={`${id}-extra-hint`} class={errors['*extra'] ? 'field-error' : 'hint'}>
                {errors['*extra'] ?? 'This action accepts arguments beyond the ones listed.'}
              </p>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
