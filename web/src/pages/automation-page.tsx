import { useCallback, useEffect, useState } from 'preact/hooks';
import { AppLink } from '../components/app-link.tsx';
import { AutomationFacts, RunLink } from '../components/automation-facts.tsx';
import { AutomationOutline } from '../components/automation-outline.tsx';
import { AutomationTestPanel } from '../components/automation-test-panel.tsx';
import { DeleteAutomation } from '../components/delete-automation.tsx';
import { EnabledSwitch } from '../components/enabled-switch.tsx';
import { ErrorList } from '../components/error-list.tsx';
import { messagesOf } from '../lib/api.ts';
import {
  automationHref,
  automationRunsHref,
  getAutomation,
  kindLabel,
} from '../lib/automations.ts';
import type { GetOutput } from '../lib/automations.ts';
import { navigate } from '../lib/router.ts';

type State =
  | { state: 'loading' }
  | { state: 'error'; errors: string[] }
  | { state: 'ready'; automation: GetOutput };

/**
 * One automation (`/automations/<name>`): its facts, its steps as an outline beside its YAML (or
 * a script's source), a way to run or test it, and its recent runs.
 *
 * @example
 * <AutomationPage name="procedure.morning" />
 */
export function AutomationPage({ name }: { name: string }) {
  const [state, setState] = useState<State>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    let gone = false;
    getAutomation(name)
      .then((automation) => !gone && setState({ state: 'ready', automation }))
      .catch((err: unknown) => !gone && setState({ state: 'error', errors: messagesOf(err) }));
    return () => {
      gone = true;
    };
  }, [name, tick]);

  useEffect(() => {
    document.title = `${name} · Automations · Pipit`;
  }, [name, state]);

  const back = (
    <p class="small">
      <AppLink href="/automations">← All automations</AppLink>
    </p>
  );
  if (state.state === 'loading')
    return (
      <p class="muted" role="status">
        Loading the automation…
      </p>
    );
  if (state.state === 'error')
    return (
      <>
        <div class="page-header">
          {back}
          <h1>{name}</h1>
        </div>
        <ErrorList title="This automation could not be loaded" errors={state.errors} />
      </>
    );
  const a = state.automation;
  return (
    <>
      <div class="page-header">
        {back}
        <div class="automation-title">
          <span class={`badge badge-kind badge-kind-${a.kind}`}>{kindLabel(a.kind)}</span>
          <h1>{a.name}</h1>
          <EnabledSwitch automation={a} onChanged={reload} />
        </div>
        <div class="button-row">
          {a.editable ? (
            <AppLink href={automationHref(a.name, true)} class="button button-primary">
              Edit
            </AppLink>
          ) : (
            <span class="muted small">Defined by a script: change it in its file.</span>
          )}
          {a.editable ? (
            <DeleteAutomation
              name={a.name}
              version={a.version}
              onDeleted={() => navigate('/automations')}
            />
          ) : null}
        </div>
      </div>
      <div class="card automation-summary">
        <AutomationFacts automation={a} />
      </div>
      <div class="automation-layout">
        {a.source.type === 'script' ? (
          <section class="card" aria-labelledby="script-title">
            <h2 id="script-title">Script</h2>
            <p class="muted small">
              <code>{a.source.file}</code> (read-only)
            </p>
            <pre class="code automation-code" tabIndex={0}>
              {a.script_source ?? ''}
            </pre>
          </section>
        ) : (
          <>
            <section class="card" aria-labelledby="outline-title">
              <h2 id="outline-title">Steps</h2>
              <AutomationOutline steps={a.outline} />
            </section>
            <section class="card" aria-labelledby="yaml-title">
              <h2 id="yaml-title">YAML</h2>
              <pre class="code automation-code" tabIndex={0} aria-label="YAML">
                {a.yaml}
              </pre>
            </section>
          </>
        )}
      </div>
      <div class="automation-layout">
        <AutomationTestPanel automation={a} onRan={reload} />
        <section class="card" aria-labelledby="runs-title">
          <div class="card-head">
            <h2 id="runs-title">Recent runs</h2>
            <AppLink href={automationRunsHref(a)}>All its runs</AppLink>
          </div>
          {a.runs.length ? (
            <ul class="automation-runs">
              {a.runs.map((r) => (
                <li key={r.id}>
                  <RunLink run={r} />
                  {r.error ? <p class="run-error">{r.error}</p> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p class="empty">No runs yet.</p>
          )}
        </section>
      </div>
    </>
  );
}
