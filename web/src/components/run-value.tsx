import { prettyJson } from '../lib/format.ts';
import { hasMasked, MASKED } from '../lib/runs.ts';

interface RunValueProps {
  /** "Arguments" or "Output": the heading, and the code block's label. */
  label: string;
  value: unknown;
  /** The value is the start of a longer JSON text, cut by the history. */
  truncated?: boolean;
  /** Heading level: sections of a run use h2, a step's parts h4. */
  level?: 2 | 4;
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'object' && !Array.isArray(value) && !Object.keys(value).length)
  );
}

function cutArgs(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, '_truncated'))
    return undefined;
  const text = (value as { _truncated: unknown })._truncated;
  return typeof text === 'string' ? text : undefined;
}

/**
 * A run's arguments or output as pretty JSON, as recorded: masked secrets show as `[redacted]`
 * (with a note saying why), and a cut output says where it was cut.
 *
 * @example
 * <RunValue label="Output" value={run.output} truncated={run.output_truncated} />
 */
export function RunValue({ label, value, truncated = false, level = 2 }: RunValueProps) {
  const Heading = level === 2 ? 'h2' : 'h4';
  const args = label === 'Arguments';
  // What the history cut is kept as the start of the JSON text: shown as such, with its length.
  const cut = truncated && typeof value === 'string' ? value : args ? cutArgs(value) : undefined;
  const text = cut ?? prettyJson(value);
  return (
    <div class="run-value">
      <Heading class="run-value-title">{label}</Heading>
      {isEmpty(value) ? (
        <p class="muted small">{args ? 'No arguments.' : 'No output.'}</p>
      ) : (
        <pre class="code" aria-label={label} tabIndex={0}>
          {text}
        </pre>
      )}
      {cut !== undefined ? (
        <p class="hint">
          Cut at {cut.length.toLocaleString()} characters: the history keeps the first{' '}
          <code>runs.max_output_bytes</code> of each {args ? 'argument list' : 'output'}.
        </p>
      ) : null}
      {args && hasMasked(value) ? (
        <p class="hint">
          <code>{MASKED}</code> marks a secret (a password, a token, a key): the history never keeps
          them.
        </p>
      ) : null}
    </div>
  );
}
