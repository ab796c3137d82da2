import { useEffect, useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { setAutomationEnabled } from '../lib/automations.ts';
import type { AutomationSummary } from '../lib/automations.ts';

/**
 * The on/off switch of a hook or cron. It shows the new state at once and goes back (with the
 * server's message) if the server refuses.
 *
 * @example
 * <EnabledSwitch automation={a} onChanged={reload} />
 */
export function EnabledSwitch({
  automation: a,
  onChanged,
}: {
  automation: AutomationSummary;
  onChanged?: (enabled: boolean) => void;
}) {
  // What the user switched to, until the list's next load says the same (or the server refuses).
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  useEffect(() => setWanted(null), [a.enabled]);
  const on = wanted ?? a.enabled;
  if (a.kind === 'procedure') return null;
  return (
    <span class="switch-wrap">
      <label class="switch" title={on ? 'Enabled: it runs' : 'Disabled: it does not run'}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-label={`Enabled: ${a.name}`}
          onChange={(e) => {
            const next = e.currentTarget.checked;
            setWanted(next);
            setBusy(true);
            setError('');
            setAutomationEnabled(a.name, next)
              .then((r) => {
                setWanted(r.enabled);
                onChanged?.(r.enabled);
              })
              .catch((err: unknown) => {
                setWanted(null);
                setError(messagesOf(err).join(' '));
              })
              .finally(() => setBusy(false));
          }}
        />
        <span class="switch-track" aria-hidden="true" />
        <span class="switch-text">{on ? 'Enabled' : 'Disabled'}</span>
      </label>
      {error ? (
        <span class="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
