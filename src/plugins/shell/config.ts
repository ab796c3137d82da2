import { z } from '../api/index.ts';
import { ENV_PATTERN, lockedReason } from './env.ts';

/** Default of `shell.timeout_seconds`: how long a command may run when the call gives no `timeout`. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** Default of `shell.max_output_bytes`: output kept per stream (stdout, stderr) of one command. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Default of `shell.stream_events_per_second`. */
export const DEFAULT_STREAM_EVENTS_PER_SECOND = 10;

/** Default of `shell.stream_lines_per_event`. */
export const DEFAULT_STREAM_LINES_PER_EVENT = 10_000;

/**
 * The `shell:` configuration section. Its presence (even `shell: {}`) turns the plugin on.
 *
 * @example
 * ShellConfig.parse({ allow: ['uptime', 'systemctl status *'] }).timeout_seconds; // 60
 */
export const ShellConfig = z.strictObject({
  allow: z
    .array(z.string().min(1))
    .optional()
    .describe(
      'commands allowed to run, as patterns such as "uptime" or "systemctl status *"; absent = any command',
    ),
  allow_env: z
    .array(
      z
        .string()
        .regex(ENV_PATTERN, 'is not a variable name, nor a prefix ending in "*" such as "LC_*"')
        .superRefine((name, ctx) => {
          const why = name.endsWith('*') ? undefined : lockedReason(name);
          if (why)
            ctx.addIssue({
              code: 'custom',
              message: `cannot be allowed: ${why}; a wrapper script listed in shell.allow can set it`,
            });
        }),
    )
    .default([])
    .describe(
      'with shell.allow, the variables "env" may set: names such as "LANG", or prefixes such as "LC_*"; the rest are refused (PATH, LD_* and the like always)',
    ),
  timeout_seconds: z
    .number()
    .min(0)
    .max(7 * 86400)
    .default(DEFAULT_TIMEOUT_SECONDS)
    .describe('how long a command may run when the call gives no timeout (0 = no limit)'),
  max_output_bytes: z
    .number()
    .int()
    .min(1024)
    .max(256 * 1024 * 1024)
    .default(DEFAULT_MAX_OUTPUT_BYTES)
    .describe('output kept (or streamed) per stream of one command; the rest is counted and cut'),
  stream_events_per_second: z
    .number()
    .min(0.1)
    .max(1000)
    .default(DEFAULT_STREAM_EVENTS_PER_SECOND)
    .describe(
      'with stream: true, the most ShellOutputEvent events per second for each of stdout and stderr; lines printed faster go out together, in one event',
    ),
  stream_lines_per_event: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_STREAM_LINES_PER_EVENT)
    .describe(
      'with stream: true, the most lines in one ShellOutputEvent; lines past it until the next event are dropped and counted in its "dropped"',
    ),
  kill_grace_seconds: z
    .number()
    .min(0)
    .max(60)
    .default(2)
    .describe(
      'after a timeout, SIGTERM goes to the process group; SIGKILL follows after this long',
    ),
});
export type ShellConfig = z.output<typeof ShellConfig>;
