import type { OutlineStep } from '../lib/automations.ts';

/** A value as written in the YAML, on one line (`${volume}` stays as typed). */
function written(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function Args({ args }: { args: unknown }) {
  if (args === undefined || args === null) return null;
  if (typeof args !== 'object' || Array.isArray(args))
    return <code class="outline-args">{written(args)}</code>;
  const entries = Object.entries(args as Record<string, unknown>);
  if (!entries.length) return null;
  return (
    <dl class="outline-args">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>
            <code>{written(v)}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Branch({ label, steps }: { label: preact.ComponentChildren; steps: OutlineStep[] }) {
  return (
    <div class="outline-branch">
      <span class="outline-keyword">{label}</span>
      <Steps steps={steps} />
    </div>
  );
}

function Step({ step }: { step: OutlineStep }) {
  switch (step.type) {
    case 'action':
      return (
        <>
          <span class="outline-keyword">run</span> <code class="outline-action">{step.action}</code>
          {step.ignore_errors ? <span class="badge">errors ignored</span> : null}
          {step.target !== undefined ? (
            <span class="muted small"> on {written(step.target)}</span>
          ) : null}
          <Args args={step.args} />
        </>
      );
    case 'if':
      return (
        <>
          <Branch
            label={
              <>
                if <code>{step.condition}</code>
              </>
            }
            steps={step.then}
          />
          {step.elif.map((b, i) => (
            <Branch
              key={i}
              label={
                <>
                  else if <code>{b.condition}</code>
                </>
              }
              steps={b.then}
            />
          ))}
          {step.else.length ? <Branch label="otherwise" steps={step.else} /> : null}
        </>
      );
    case 'for':
    case 'fork':
      return (
        <Branch
          label={
            <>
              {step.type === 'fork' ? 'for each (in parallel)' : 'for each'}{' '}
              <code>{step.variable}</code> in <code>{step.iterable}</code>
            </>
          }
          steps={step.steps}
        />
      );
    case 'while':
      return (
        <Branch
          label={
            <>
              while <code>{step.condition}</code>
            </>
          }
          steps={step.steps}
        />
      );
    case 'set':
      return (
        <>
          <span class="outline-keyword">set</span>
          <Args args={step.values} />
        </>
      );
    case 'return':
      return (
        <>
          <span class="outline-keyword">return</span>{' '}
          {step.value === null ? (
            <span class="muted">the last output</span>
          ) : (
            <code>{written(step.value)}</code>
          )}
        </>
      );
    case 'break':
    case 'continue':
      return <span class="outline-keyword">{step.type}</span>;
  }
}

function Steps({ steps }: { steps: OutlineStep[] }) {
  if (!steps.length) return <p class="muted small">no steps</p>;
  return (
    <ol class="outline">
      {steps.map((s, i) => (
        <li key={i} class={`outline-step outline-${s.type}`}>
          <Step step={s} />
        </li>
      ))}
    </ol>
  );
}

/**
 * The steps of a YAML automation as a readable tree: actions with their arguments, conditions
 * with their branches, loops with their bodies.
 *
 * @example
 * <AutomationOutline steps={automation.outline} />
 */
export function AutomationOutline({ steps }: { steps: OutlineStep[] }) {
  return <Steps steps={steps} />;
}
