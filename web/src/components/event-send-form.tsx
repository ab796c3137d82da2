import { useEffect, useId, useState } from 'preact/hooks';
import { useTransient } from '../lib/transient.ts';
import { ErrorList } from './error-list.tsx';
import { TextField } from './text-field.tsx';

interface EventSendFormProps {
  /** Sends the event; false when it could not be sent (not connected). */
  onSend: (subtype: string, args: Record<string, unknown>) => boolean;
  serverErrors: string[];
}

/** Publishes a CustomEvent with a subtype and a JSON payload. */
export function EventSendForm({ onSend, serverErrors }: EventSendFormProps) {
  const id = useId();
  const [subtype, setSubtype] = useState('');
  const [payload, setPayload] = useState('{}');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, showSent, clearSent] = useTransient();
  // The server answers a refused frame with an error, never an ack: drop the "Sent" note then.
  useEffect(() => {
    if (serverErrors.length) clearSent();
  }, [serverErrors, clearSent]);
  // A message about a field goes once the field is edited.
  const edit = (field: string, set: (v: string) => void) => (value: string) => {
    set(value);
    if (errors[field] || errors.send) setErrors({ ...errors, [field]: '', send: '' });
  };

  const submit = (e: Event) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    if (!subtype.trim()) next.subtype = 'Enter a subtype, e.g. door_open.';
    let args: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(payload.trim() || '{}') as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        next.payload = 'The payload must be a JSON object.';
      else args = parsed as Record<string, unknown>;
    } catch (err) {
      next.payload = `Not valid JSON: ${(err as Error).message}`;
    }
    setErrors(next);
    clearSent();
    if (Object.keys(next).length) return;
    if (onSend(subtype.trim(), args)) showSent(`Sent “${subtype.trim()}”.`);
    else setErrors({ send: 'Not connected: wait for the connection to come back and try again.' });
  };

  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Send a custom event</h2>
      <p class="muted">
        Publishes a <code>CustomEvent</code>: hooks whose condition matches its subtype will run.
      </p>
      <TextField
        label="Subtype"
        name="subtype"
        value={subtype}
        onInput={edit('subtype', setSubtype)}
        required
        error={errors.subtype}
        placeholder="door_open"
      />
      <div class="field">
        <label for={`${id}-payload`}>
          Payload (JSON object)<span class="optional"> (optional)</span>
        </label>
        <textarea
          id={`${id}-payload`}
          class="code"
          rows={4}
          spellcheck={false}
          value={payload}
          aria-invalid={errors.payload ? true : undefined}
          aria-describedby={errors.payload ? `${id}-payload-error` : undefined}
          onInput={(e) => edit('payload', setPayload)(e.currentTarget.value)}
        />
        {errors.payload ? (
          <p id={`${id}-payload-error`} class="field-error">
            {errors.payload}
          </p>
        ) : null}
      </div>
      <ErrorList errors={errors.send ? [errors.send] : []} />
      <ErrorList title="The server refused the event" errors={serverErrors} />
      <div class="button-row">
        <button type="submit" class="button button-primary">
          Send event
        </button>
        <span role="status" class="muted">
          {sent}
        </span>
      </div>
    </form>
  );
}
