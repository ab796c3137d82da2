import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { reloadConfiguration } from '../lib/config-reload.ts';
import type { ReloadOutcome } from '../lib/config-reload.ts';
import { useTransient } from '../lib/transient.ts';
import { ErrorList } from './error-list.tsx';

/**
 * Settings → Configuration: re-reads the configuration file (`POST /reload`) and says what came
 * of it. A plain success goes away by itself; warnings and settings that need a restart stay
 * until dismissed (or the next reload), and so does a refusal.
 *
 * @example
 * <ReloadConfig />
 */
export function ReloadConfig() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ReloadOutcome | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [done, showDone, clearDone] = useTransient();

  const reload = async () => {
    setBusy(true);
    setOutcome(null);
    setErrors([]);
    clearDone();
    try {
      const result = await reloadConfiguration();
      if (result.warnings.length || result.restart_needed.length) setOutcome(result);
      else showDone('Configuration reloaded: the new settings are in use.');
    } catch (err) {
      setErrors(messagesOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="configuration-title" class="section">
      <h2 id="configuration-title">Configuration</h2>
      <div class="card">
        <p>
          Pipit reads its configuration file when it starts. After editing the file, reload it here
          to use it without a restart. A configuration with errors is refused and the running one
          stays in use.
        </p>
        <div class="button-row">
          <button
            type="button"
            class="button button-primary"
            disabled={busy}
            onClick={() => void reload()}
          >
            {busy ? 'Reloading…' : 'Reload configuration'}
          </button>
        </div>
        <p class="status-line" role="status">
          {done}
        </p>
        {outcome ? (
          <div class="alert alert-ok" role="status">
            <strong>Configuration reloaded.</strong>
            {outcome.warnings.length ? (
              <div class="outcome-part">
                <p>Warnings:</p>
                <ul aria-label="Warnings">
                  {outcome.warnings.map((w, i) => (
                    <li key={i}>{w}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {outcome.restart_needed.length ? (
              <div class="outcome-part">
                <p>These changes apply only after Pipit restarts:</p>
                <ul aria-label="Restart needed">
                  {outcome.restart_needed.map((r, i) => (
                    <li key={i}>
                      <code>{r}</code>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <button
              type="button"
              class="button button-ghost button-small"
              onClick={() => setOutcome(null)}
            >
              Dismiss
            </button>
          </div>
        ) : null}
        <ErrorList
          title="The configuration was not reloaded: the running one is unchanged."
          errors={errors}
        />
      </div>
    </section>
  );
}
