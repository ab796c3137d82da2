import { asSentence } from '../lib/format.ts';
import { countSteps, runBadges, runDuration } from '../lib/runs.ts';
import type { RunTree } from '../lib/runs.ts';
import { AppLink } from './app-link.tsx';
import { RunValue } from './run-value.tsx';

/** Up to this many steps in all, every step shows unfolded; past it, only the failed ones. */
const UNFOLD_ALL = 12;

interface StepProps {
  step: RunTree;
  index: number;
  /** When the whole run started (epoch ms): each step says how far into it it started. */
  origin: number;
  unfoldAll: boolean;
}

function offset(step: RunTree, origin: number): string {
  const ms = Math.max(0, Date.parse(step.started_at) - origin);
  return `+${runDuration(ms).replace('< 1 ms', '0 ms')}`;
}

function Step({ step, index, origin, unfoldAll }: StepProps) {
  const failed = step.outcome === 'failed';
  return (
    <li class={`step${failed ? ' step-failed' : ''}`}>
      <details open={unfoldAll || failed}>
        <summary class="step-head">
          <span class="step-index" aria-hidden="true">
            {index}
          </span>
          <code class="step-name">{step.name}</code>
          {runBadges(step)
            .filter((b) => b !== step.transport)
            .map((b) => (
              <span key={b} class="badge badge-origin">
                {b}
              </span>
            ))}
          <span class={`pill ${failed ? 'pill-error' : 'pill-ok'}`}>
            {failed ? 'Failed step' : 'OK'}
          </span>
          <span class="muted small step-time">
            {offset(step, origin)} · took {runDuration(step.duration_ms)}
          </span>
        </summary>
        <div class="step-body">
          {failed && step.errors.length ? (
            <div class="alert alert-error" role="note">
              <strong>{step.error_code ?? 'Error'}</strong>
              <ul>
                {step.errors.map((e, i) => (
                  <li key={i}>{asSentence(e)}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div class="step-values">
            <RunValue label="Arguments" value={step.args} level={4} />
            {failed && step.output === null ? null : (
              <RunValue
                label="Output"
                value={step.output}
                truncated={step.output_truncated}
                level={4}
              />
            )}
          </div>
          {step.children.length ? (
            <StepList steps={step.children} origin={origin} unfoldAll={unfoldAll} />
          ) : null}
          <p class="small step-link">
            <AppLink href={`/runs/${encodeURIComponent(step.id)}`}>Open this step</AppLink>
          </p>
        </div>
      </details>
    </li>
  );
}

interface StepListProps {
  steps: RunTree[];
  origin: number;
  unfoldAll: boolean;
  label?: string;
}

function StepList({ steps, origin, unfoldAll, label }: StepListProps) {
  return (
    <ol class="timeline" aria-label={label}>
      {steps.map((s, i) => (
        <Step key={s.id} step={s} index={i + 1} origin={origin} unfoldAll={unfoldAll} />
      ))}
    </ol>
  );
}

/**
 * The steps of a procedure, hook or cron, in the order they started, nested as they ran, each
 * with its arguments, output and error; failed steps stand out and are always unfolded.
 *
 * @example
 * <RunTimeline run={tree} />
 */
export function RunTimeline({ run }: { run: RunTree }) {
  const total = countSteps(run);
  return (
    <section class="card run-steps" aria-labelledby="run-steps-title">
      <div class="card-head">
        <h2 id="run-steps-title">Steps</h2>
        <span class="muted small">
          {total} step{total === 1 ? '' : 's'}, in the order they started
        </span>
      </div>
      <StepList
        steps={run.children}
        origin={Date.parse(run.started_at)}
        unfoldAll={total <= UNFOLD_ALL}
        label="Steps"
      />
    </section>
  );
}
