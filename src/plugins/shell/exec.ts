import { randomUUID } from 'node:crypto';
import { actionsFor, PipitError, secret, z } from '../api/index.ts';
import type { PluginActionContext } from '../api/index.ts';
import { planCommand } from './allow.ts';
import type { CommandPlan } from './allow.ts';
import { confine } from './confine.ts';
import { checkAllowedEnv, checkEnvNames } from './env.ts';
import { LineBatcher } from './line-batcher.ts';
import { truncationNote } from './output.ts';
import { ShellProcess } from './process.ts';
import type { ProcessResult } from './process.ts';
import type { ShellState } from './state.ts';

const action = actionsFor<ShellState>();

/** The most of stderr quoted in an error message or an exit event. */
const STDERR_TAIL = 4096;

function tail(text: string, max = STDERR_TAIL): string {
  const trimmed = text.trimEnd();
  return trimmed.length > max ? `...${trimmed.slice(-max)}` : trimmed;
}

function short(display: string): string {
  return display.length > 200 ? `${display.slice(0, 197)}...` : display;
}

/** The output of a command that ended, or the error that says why it failed. */
function outcome(
  plan: CommandPlan,
  result: ProcessResult,
  timeoutMs: number,
  ignoreErrors: boolean,
  ctx: PluginActionContext<ShellState>,
): string {
  const cmd = short(plan.display);
  if (result.killed === 'timeout') {
    throw new PipitError(
      'TIMEOUT',
      `shell.exec: ${cmd} ran past its timeout of ${timeoutMs / 1000} s and was killed with every process it started: raise "timeout" (seconds, 0 = no limit), or start it with stream: true`,
      { details: { pid: result.pid } },
    );
  }
  if (result.killed) {
    throw new PipitError(
      'ACTION_FAILED',
      `shell.exec: ${cmd} was killed (${result.killed === 'aborted' ? 'the caller went away' : 'the plugin stopped'})`,
    );
  }
  const stdout =
    result.stdout.text() +
    (result.stdout.truncated ? truncationNote(result.stdout.total, result.stdout.limit) : '');
  if (result.exitCode === 0) return stdout;
  const status =
    result.exitCode === null
      ? `was killed by ${result.signal}`
      : `exited with status ${result.exitCode}`;
  const stderr = tail(result.stderr.text());
  if (ignoreErrors) {
    ctx.log.warn(
      { cmd, exitCode: result.exitCode, signal: result.signal, stderr },
      `command ${status}`,
    );
    return stdout;
  }
  throw new PipitError(
    'ACTION_FAILED',
    `shell.exec: ${cmd} ${status}${stderr ? `: ${stderr}` : ' (nothing on stderr)'}`,
    {
      details: { exit_code: result.exitCode, signal: result.signal, stderr },
    },
  );
}

/** The most characters in one ShellOutputEvent (a first line, up to 64 KiB, always fits). */
const STREAM_CHARS_PER_EVENT = 256 * 1024;

/** Starts a command in the background, with events; returns at once. */
async function startJob(
  cmd: string | string[],
  plan: CommandPlan,
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs: number; stream: boolean },
  { state, fire, log }: PluginActionContext<ShellState>,
): Promise<{ id: string; pid: number }> {
  const id = randomUUID();
  const emit = (kind: 'ShellOutputEvent' | 'ShellExitEvent', fields: Record<string, unknown>) =>
    fire(kind, fields).then(
      () => undefined,
      (err: unknown) => log.warn({ err, id }, `could not emit ${kind}`),
    );
  let pid = 0;
  // Lines go out in batches, in order, each batch after the one before.
  const batcher = opts.stream
    ? new LineBatcher(
        {
          batchesPerSecond: state.config.stream_events_per_second,
          linesPerBatch: state.config.stream_lines_per_event,
          charsPerBatch: STREAM_CHARS_PER_EVENT,
        },
        ({ stream, lines, dropped }) =>
          emit('ShellOutputEvent', {
            id,
            pid,
            stream,
            line: lines.join('\n'),
            lines,
            dropped,
          }),
      )
    : undefined;
  const proc = await ShellProcess.start({
    plan,
    ...opts,
    graceMs: state.config.kill_grace_seconds * 1000,
    maxOutputBytes: state.config.max_output_bytes,
    track: state.groups,
    ...(batcher
      ? {
          onLine: (stream, line, linePid) => {
            pid = linePid;
            batcher.push(stream, line);
          },
        }
      : {}),
  });
  state.jobs.set(id, { id, process: proc, cmd });
  void proc.done.then(async (result) => {
    state.jobs.delete(id);
    await batcher?.end();
    await emit('ShellExitEvent', {
      id,
      pid: result.pid,
      cmd,
      exit_code: result.exitCode,
      signal: result.signal,
      killed: result.killed ?? null,
      truncated: result.stdout.truncated || result.stderr.truncated,
      duration: result.durationMs / 1000,
      ...(batcher
        ? { dropped: batcher.dropped }
        : { stdout: result.stdout.text(), stderr: tail(result.stderr.text()) }),
    });
  });
  return { id, pid: proc.pid };
}

export const exec = action({
  name: 'exec',
  summary:
    'Runs a command and returns what it printed (stdout); a non-zero exit is an error carrying the exit status and stderr.',
  description:
    'A string runs through /bin/sh -c (pipes, variables, globs work); a list ["program", "arg", ...] runs the program directly, without a shell, so no argument is ever interpreted. The command gets its own process group: a timeout (or the caller going away) kills it and everything it started. Output past shell.max_output_bytes is cut, with a note saying so. With stream: true (or background: true) the call returns {id, pid} at once and the command reports through ShellOutputEvent / ShellExitEvent events.',
  params: {
    cmd: z
      .union([z.string().min(1), z.array(z.string()).min(1)])
      .describe(
        'the command: a string run by /bin/sh -c, or a list ["program", "arg", ...] run without a shell',
      ),
    cwd: z.string().min(1).optional().describe("working directory (default: the service's)"),
    // Secret: values such as PGPASSWORD or GITHUB_TOKEN must not reach the run history.
    env: secret(
      z
        .record(z.string(), z.string())
        .optional()
        .describe(
          "environment variables, added to the service's own (kept out of the run history); with shell.allow set, only the names in shell.allow_env (never PATH, LD_* and the like)",
        ),
    ),
    timeout: z
      .number()
      .min(0)
      .max(7 * 86400)
      .optional()
      .describe(
        'seconds before the command and every process it started are killed; 0 = no limit (default: shell.timeout_seconds, 60; none with stream or background)',
      ),
    ignore_errors: z
      .boolean()
      .default(false)
      .describe('return the output even when the command exits with a non-zero status'),
    stream: z
      .boolean()
      .default(false)
      .describe(
        'return {id, pid} at once; output lines become ShellOutputEvent events (lines printed together share one, at most shell.stream_events_per_second), and the end a ShellExitEvent',
      ),
    background: z
      .boolean()
      .default(false)
      .describe(
        'return {id, pid} at once, without line events; the ShellExitEvent at the end carries stdout and stderr',
      ),
  },
  run: async ({ cmd, cwd, env, timeout, ignore_errors, stream, background }, ctx) => {
    const { state, signal } = ctx;
    checkEnvNames(env);
    // With an allow-list, the caller's env must not choose what runs (PATH, GIT_CONFIG_*...).
    const planned = planCommand(cmd, state.allow);
    if (state.allow) checkAllowedEnv(env, state.config.allow_env);
    const plan = state.allow ? confine(planned) : planned;
    const common = { ...(cwd === undefined ? {} : { cwd }), ...(env === undefined ? {} : { env }) };
    if (stream || background) {
      return startJob(cmd, plan, { ...common, timeoutMs: (timeout ?? 0) * 1000, stream }, ctx);
    }
    const timeoutMs = (timeout ?? state.config.timeout_seconds) * 1000;
    const proc = await ShellProcess.start({
      plan,
      ...common,
      timeoutMs,
      graceMs: state.config.kill_grace_seconds * 1000,
      maxOutputBytes: state.config.max_output_bytes,
      track: state.groups,
    });
    const onAbort = () => proc.kill('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      return outcome(plan, await proc.done, timeoutMs, ignore_errors, ctx);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  },
});
