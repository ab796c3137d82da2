import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { deleteAutomation, isConflict } from '../lib/automations.ts';
import { ErrorList } from './error-list.tsx';

/**
 * "Delete", asking first: the automation goes from its file, so the second press must be meant.
 *
 * @example
 * <DeleteAutomation name="cron.Nightly" version={a.version} onDeleted={() => navigate('/automations')} />
 */
export function DeleteAutomation({
  name,
  version,
  onDeleted,
}: {
  name: string;
  version: string;
  onDeleted: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  if (!asking)
    return (
      <button type="button" class="button button-ghost" onClick={() => setAsking(true)}>
        Delete…
      </button>
    );
  return (
    <div class="confirm" role="alertdialog" aria-label={`Delete ${name}?`}>
      <p>
        Delete <code>{name}</code>? It is removed from its file and stops at once.
      </p>
      <ErrorList errors={errors} />
      <div class="button-row">
        <button
          type="button"
          class="button button-danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            deleteAutomation(name, version)
              .then(onDeleted)
              .catch((err: unknown) =>
                setErrors(
                  isConflict(err)
                    ? ['It changed since you opened it: reload the page to see the latest.']
                    : messagesOf(err),
                ),
              )
              .finally(() => setBusy(false));
          }}
        >
          Delete
        </button>
        <button type="button" class="button button-secondary" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
