import { useEffect, useMemo, useState } from 'preact/hooks';
import { ActionCombobox } from '../components/action-combobox.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorList } from '../components/error-list.tsx';
import { ParamsEditor } from '../components/params-editor.tsx';
import type { ParamsMode } from '../components/params-editor.tsx';
import { RecentRunsList } from '../components/recent-runs-list.tsx';
import { RunOutput } from '../components/run-output.tsx';
import type { RunResult } from '../components/run-output.tsx';
import { messagesOf, request } from '../lib/api.ts';
import type { ResponseMessage } from '../lib/api.ts';
import { loadCatalog } from '../lib/catalog.ts';
import type { CatalogEntry } from '../lib/catalog.ts';
import { buildCurl } from '../lib/curl.ts';
import { addRecentRun, loadRecentRuns, saveRecentRuns } from '../lib/recent-runs.ts';
import type { RecentRun } from '../lib/recent-runs.ts';
import { argsFromForm, formFromArgs } from '../lib/schema-form.ts';
import type { FormValues } from '../lib/schema-form.ts';

const EMPTY: FormValues = { fields: {}, extra: '' };

function parseRaw(raw: string): { args?: Record<string, unknown>; error?: string } {
  if (!raw.trim()) return { args: {} };
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return { args: v as Record<string, unknown> };
    return { error: 'The arguments must be a JSON object, e.g. {"seconds": 1}.' };
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
}

/** Execute: pick an action, fill its generated form (or raw JSON), run it, see the output. */
export function ExecutePage() {
  const [catalog, setCatalog] = useState<CatalogEntry[]>([]);
  const [catalogErrors, setCatalogErrors] = useState<string[]>([]);
  const [catalogLoaded, setCatalogLoaded] = useState(false);
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<ParamsMode>('form');
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [raw, setRaw] = useState('{}');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<RunResult | null>(null);
  const [recent, setRecent] = useState<RecentRun[]>(() => loadRecentRuns(localStorage));

  useEffect(() => {
    loadCatalog()
      .then(setCatalog)
      .catch((err: unknown) => setCatalogErrors(messagesOf(err)))
      .finally(() => setCatalogLoaded(true));
  }, []);

  const action = query.trim();
  const entry = useMemo(() => catalog.find((e) => e.name === action), [catalog, action]);
  const model = entry?.form;

  // The arguments as they stand, from whichever editor is showing.
  const current = (): { args: Record<string, unknown>; errors: Record<string, string> } => {
    if (mode === 'json' || !model) {
      const { args, error } = parseRaw(raw);
      return { args: args ?? {}, errors: error ? { '*raw': error } : {} };
    }
    return argsFromForm(model, values);
  };

  const load = (name: string, args: Record<string, unknown>) => {
    // Another action's output (and its errors) would read as this one's: it goes.
    if (result && result.action !== name) setResult(null);
    setQuery(name);
    const m = catalog.find((e) => e.name === name)?.form;
    setValues(m ? formFromArgs(m, args) : EMPTY);
    setRaw(JSON.stringify(args, null, 2));
    setErrors({});
  };

  const switchMode = (next: ParamsMode) => {
    if (next === mode) return;
    const now = current();
    if (Object.keys(now.errors).length) {
      setErrors(now.errors);
      return;
    }
    if (next === 'json') setRaw(JSON.stringify(now.args, null, 2));
    else if (model) setValues(formFromArgs(model, now.args));
    setErrors({});
    setMode(next);
  };

  const run = async (name: string, args: Record<string, unknown>) => {
    setRunning(true);
    try {
      const res = await request('POST', '/execute', { type: 'request', action: name, args });
      const body = res.body as ResponseMessage | null;
      const errs = body?.response?.errors ?? (res.status === 200 ? [] : [`HTTP ${res.status}`]);
      setResult({
        action: name,
        status: res.status,
        errors: errs,
        output: body?.response?.output,
        durationMs: res.durationMs,
      });
      const ok = res.status === 200 && errs.length === 0;
      setRecent(
        addRecentRun(localStorage, {
          action: name,
          args,
          at: Date.now(),
          ok,
          durationMs: res.durationMs,
        }),
      );
    } catch (err) {
      setResult({
        action: name,
        status: 0,
        errors: messagesOf(err),
        output: undefined,
        durationMs: 0,
      });
    } finally {
      setRunning(false);
    }
  };

  const submit = (e: Event) => {
    e.preventDefault();
    if (!action) {
      setErrors({ '*action': 'Choose an action to run.' });
      return;
    }
    const now = current();
    setErrors(now.errors);
    if (Object.keys(now.errors).length) return;
    void run(action, now.args);
  };

  const curl = buildCurl({
    baseUrl: location.origin,
    action: action || 'utils.echo',
    args: current().args,
  });

  return (
    <>
      <div class="page-header">
        <h1>Execute</h1>
        <p class="muted">Run any plugin action or procedure of this instance.</p>
      </div>
      <ErrorList title="The list of actions could not be loaded" errors={catalogErrors} />
      <div class="execute-layout">
        <form class="execute-main" onSubmit={submit} noValidate aria-label="Run an action">
          <div class="card">
            <ActionCombobox
              entries={catalog}
              value={query}
              onInput={(text) => {
                setQuery(text);
                setErrors({});
                // Once the name no longer names the action that ran, its output would read as
                // the new one's: it goes at the first keystroke, not only when a name is complete.
                if (result && text.trim() !== result.action) setResult(null);
              }}
              onSelect={(picked) => load(picked.name, {})}
              // Until the catalog is in, typing would show an empty list; after a failure the
              // field stays usable for a name typed in full.
              loading={!catalogLoaded}
            />
            {errors['*action'] ? <p class="field-error">{errors['*action']}</p> : null}
            {entry ? (
              <div class="action-doc">
                <p class="action-summary">{entry.summary}</p>
                {entry.description ? <p class="muted">{entry.description}</p> : null}
              </div>
            ) : action && catalog.length ? (
              <p class="hint">
                No action or procedure is named “{action}”: pick one from the list.
              </p>
            ) : null}
          </div>
          {action ? (
            <ParamsEditor
              model={model}
              mode={mode}
              onMode={switchMode}
              values={values}
              onValues={setValues}
              raw={raw}
              onRaw={setRaw}
              errors={errors}
            />
          ) : null}
          <div class="button-row">
            <button type="submit" class="button button-primary" disabled={running}>
              {running ? 'Running…' : 'Run'}
            </button>
            <CopyButton text={curl} label="Copy as curl" />
          </div>
          <RunOutput result={result} running={running} />
        </form>
        <RecentRunsList
          runs={recent}
          disabled={running}
          onLoad={(r) => load(r.action, r.args)}
          onRerun={(r) => {
            load(r.action, r.args);
            void run(r.action, r.args);
          }}
          onClear={() => {
            saveRecentRuns(localStorage, []);
            setRecent([]);
          }}
        />
      </div>
    </>
  );
}
