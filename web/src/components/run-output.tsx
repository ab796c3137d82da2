import { formatDuration, prettyJson } from '../lib/format.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorList } from './error-list.tsx';

/** The outcome of one run as the Execute view shows it. */
export interface RunResult {
  action: string;
  status: number;
  errors: string[];
  output: unknown;
  durationMs: number;
}

/** The output of a run: success or the errors, the duration, and the pretty-printed output. */
export function RunOutput({ result, running }: { result: RunResult | null; running: boolean }) {
  if (running)
    return (
      <section class="card output" aria-labelledby="output-title" aria-busy="true">
        <h2 id="output-title">Output</h2>
        <p role="status" class="muted">
          Running…
        </p>
      </section>
    );
  if (!result) return null;
  const ok = result.status >= 200 && result.status < 300 && result.errors.length === 0;
  // A failed run's output is only the `{"success": false}` placeholder: the errors say it all.
  const placeholder = !ok && JSON.stringify(result.output) === JSON.stringify({ success: false });
  const text = placeholder ? '' : prettyJson(result.output);
  return (
    <section
      class={`card output ${ok ? 'output-ok' : 'output-error'}`}
      aria-labelledby="output-title"
    >
      <div class="card-head">
        <h2 id="output-title">Output</h2>
        <p class="run-status" role="status">
          <span class={`pill ${ok ? 'pill-ok' : 'pill-error'}`}>{ok ? 'Succeeded' : 'Failed'}</span>{' '}
          <span class="muted">
            <code>{result.action}</code> · HTTP {result.status} · took{' '}
            <span class="run-duration">{formatDuration(result.durationMs)}</span>
          </span>
        </p>
      </div>
      <ErrorList title={ok ? undefined : 'Errors'} errors={result.errors} />
      {text ? (
        <>
          <pre class="code output-json" aria-label="Run output" tabIndex={0}>
            {text}
          </pre>
          <div class="button-row">
            <CopyButton text={text} label="Copy output" />
          </div>
        </>
      ) : null}
    </section>
  );
}
