import { useId, useMemo, useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { testAutomation } from '../lib/automations.ts';
import type { AutomationSummary, TestOutput } from '../lib/automations.ts';
import { prettyJson } from '../lib/format.ts';
import { argsFromForm, formFromProcedure } from '../lib/schema-form.ts';
import type { FormValues } from '../lib/schema-form.ts';
import { AppLink } from './app-link.tsx';
import { ErrorList } from './error-list.tsx';
import { ParamsEditor } from './params-editor.tsx';
import type { ParamsMode } from './params-editor.tsx';

type Outcome = { dryRun: boolean; result: TestOutput } | { dryRun: boolean; errors: string[] };

function parseEvent(text: string): { event?: unknown; error?: string } {
  if (!text.trim()) return {};
  try {
    return { event: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: `The sample event is not valid JSON: ${(err as Error).message}` };
  }
}

function TestResult({ outcome }: { outcome: Outcome }) {
  if ('errors' in outcome)
    return (
      <ErrorList
        title={outcome.dryRun ? 'The dry run failed' : 'The run failed'}
        errors={outcome.errors}
      />
    );
  const r = outcome.result;
  return (
    <div class="automation-test-result" role="status">
      {r.matched !== undefined ? (
        <p>
          <span class={`pill ${r.matched ? 'pill-ok' : 'pill-neutral'}`}>
            {r.matched ? 'Condition matched' : 'Condition did not match'}
          </span>
        </p>
      ) : null}
      {r.run_id ? (
        <p>
          <AppLink href={`/runs/${encodeURIComponent(r.run_id)}`}>
            {r.error ? 'See the failed run' : 'See the run'}
          </AppLink>
        </p>
      ) : null}
      {r.error ? <ErrorList errors={[r.error]} /> : null}
      {r.steps ? (
        <>
          <h3>Steps that would run</h3>
          {r.steps.length ? (
            <ol class="dry-run-steps">
              {r.steps.map((s, i) => (
                <li key={i}>
                  <code>{s.action}</code>
                  {s.skipped && s.skipped !== 'dry run' ? (
                    <span class="muted small"> — {s.skipped}</span>
                  ) : null}
                  <pre class="code">{prettyJson(s.args)}</pre>
                </li>
              ))}
            </ol>
          ) : (
            <p class="muted">No action would run.</p>
          )}
        </>
      ) : null}
      {!outcome.dryRun && r.output !== undefined && r.output !== null ? (
        <>
          <h3>Output</h3>
          <pre class="code output-json">{prettyJson(r.output)}</pre>
        </>
      ) : null}
    </div>
  );
}

/**
 * Trying an automation out: procedures and crons run now (procedures with an argument form from
 * their declared parameters), hooks are tested with a sample event (whether the condition matched,
 * and the run), and any of them can be dry-run to see the steps that would run.
 *
 * @example
 * <AutomationTestPanel automation={a} onRan={reload} />
 */
export function AutomationTestPanel({
  automation: a,
  onRan,
}: {
  automation: AutomationSummary;
  onRan: () => void;
}) {
  const id = useId();
  const hook = a.kind === 'event_hook' || a.kind === 'web_hook';
  const model = useMemo(
    () =>
      formFromProcedure(
        a.params.map((p) => p.name),
        a.params.filter((p) => p.required).map((p) => p.name),
        Object.fromEntries(a.params.filter((p) => !p.required).map((p) => [p.name, p.default])),
      ),
    [a.params],
  );
  const [mode, setMode] = useState<ParamsMode>('form');
  const [values, setValues] = useState<FormValues>({ fields: {}, extra: '' });
  const [raw, setRaw] = useState('{}');
  const [event, setEvent] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const collect = (): Record<string, unknown> | null => {
    const opts: Record<string, unknown> = {};
    if (a.kind === 'procedure') {
      if (mode === 'json') {
        try {
          opts.args = JSON.parse(raw || '{}') as unknown;
        } catch (err) {
          setFieldErrors({ '*raw': `Not valid JSON: ${(err as Error).message}` });
          return null;
        }
      } else {
        const { args, errors } = argsFromForm(model, values);
        setFieldErrors(errors);
        if (Object.keys(errors).length) return null;
        opts.args = args;
      }
    }
    if (hook) {
      const parsed = parseEvent(event);
      if (parsed.error) {
        setOutcome({ dryRun: false, errors: [parsed.error] });
        return null;
      }
      if (parsed.event !== undefined) opts.event = parsed.event;
    }
    return opts;
  };

  const run = (dryRun: boolean) => {
    const opts = collect();
    if (!opts) return;
    setBusy(true);
    setOutcome(null);
    testAutomation(a.name, { ...opts, dry_run: dryRun })
      .then((result) => {
        setOutcome({ dryRun, result });
        if (!dryRun) onRan();
      })
      .catch((err: unknown) => setOutcome({ dryRun, errors: messagesOf(err) }))
      .finally(() => setBusy(false));
  };

  return (
    <section class="card automation-test" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{hook ? 'Test' : 'Run'}</h2>
      {a.kind === 'procedure' && (a.params.length || mode === 'json') ? (
        <ParamsEditor
          model={model}
          mode={mode}
          onMode={setMode}
          values={values}
          onValues={setValues}
          raw={raw}
          onRaw={setRaw}
          errors={fieldErrors}
        />
      ) : null}
      {hook ? (
        <div class="field">
          <label for={`${id}-event`}>
            Sample event <span class="optional">(optional, JSON)</span>
          </label>
          <textarea
            id={`${id}-event`}
            class="code"
            rows={3}
            spellcheck={false}
            placeholder={
              a.kind === 'web_hook'
                ? '{"method": "POST", "data": {"who": "Ada"}}'
                : '{"args": {"level": 3}}'
            }
            value={event}
            onInput={(e) => setEvent(e.currentTarget.value)}
          />
          <p class="hint">Left empty, Pipit makes up an event that its condition expects.</p>
        </div>
      ) : null}
      <div class="button-row">
        <button
          type="button"
          class="button button-primary"
          disabled={busy}
          onClick={() => run(false)}
        >
          {hook ? 'Test' : 'Run now'}
        </button>
        <button
          type="button"
          class="button button-secondary"
          disabled={busy}
          onClick={() => run(true)}
        >
          Dry run
        </button>
        {busy ? (
          <span class="muted" role="status">
            Running…
          </span>
        ) : null}
      </div>
      {outcome ? <TestResult outcome={outcome} /> : null}
    </section>
  );
}
