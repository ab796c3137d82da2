import { userInfo } from 'node:os';
import { definePluginHead, z } from '../api/index.ts';

// What Pipit knows of `shell` without loading it (the catalog): read by the plugin too.

function serviceUser(): string {
  try {
    return `"${userInfo().username}"`;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/**
 * Why `shell` is off and how to turn it on.
 *
 * @example
 * console.log(SHELL_DISABLED_HINT);
 */
export const SHELL_DISABLED_HINT = `it runs any command on this host as the service's user (${serviceUser()}), so it is off until the configuration has a "shell:" section. Add "shell: {}" to enable it, or "shell: {allow: ['uptime', 'systemctl status *']}" to allow only those commands, then restart Pipit`;

const ShellOutputEvent = z.object({
  id: z.string().describe('the job id exec {background: true} answered'),
  pid: z.number().describe("the command's process id"),
  stream: z.enum(['stdout', 'stderr']).describe('where the lines were printed'),
  line: z.string().describe('the lines, joined with newlines'),
  lines: z.array(z.string()).describe('the lines printed since the last event'),
  dropped: z.number().describe('lines dropped since the last event (over stream_lines_per_event)'),
});

const ShellExitEvent = z.object({
  id: z.string().describe('the job id'),
  pid: z.number().describe("the command's process id"),
  cmd: z.union([z.string(), z.array(z.string())]).describe('the command as it was given'),
  exit_code: z.number().nullable().describe('its exit status; null when a signal ended it'),
  signal: z.string().nullable().describe('the signal that ended it, if one did'),
  killed: z.string().nullable().describe('why Pipit killed it (timeout, kill, stopped), if it did'),
  truncated: z.boolean().describe('whether stdout or stderr was cut at max_output_bytes'),
  duration: z.number().describe('seconds it ran'),
  dropped: z.number().optional().describe('with stream: true, lines dropped in all'),
  stdout: z.string().optional().describe('its output (without stream: true)'),
  stderr: z.string().optional().describe('the end of its error output (without stream: true)'),
});

/**
 * `shell`'s facts: off until configured, and the two events of background commands.
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions: [exec] });
 */
export const head = definePluginHead({
  name: 'shell',
  disabledHint: SHELL_DISABLED_HINT,
  events: { ShellOutputEvent, ShellExitEvent },
});
