import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { PipitError } from '../../core/errors.ts';
import type { CommandPlan } from './allow.ts';

/**
 * Environment variables that decide which code runs rather than what a program is given: with
 * `shell.allow` set, a caller could use them to run something the list does not allow (a PATH that
 * finds another `uptime`, a library preloaded into an allowed program, a startup file for a shell
 * script). A name ending in `*` is a prefix. The list is short on purpose: it covers the loader,
 * shells and the common interpreters; programs that read their own variables (`GIT_SSH_COMMAND`,
 * `PAGER`...) are the allow-list author's to judge, as with arguments.
 */
export const LOCKED_ENV: ReadonlyArray<readonly [name: string, why: string]> = [
  ['PATH', 'it chooses which program a command name runs'],
  ['LD_*', 'the dynamic loader loads libraries it names into the program'],
  ['DYLD_*', 'the macOS loader loads libraries it names into the program'],
  ['GCONV_PATH', 'glibc loads character-set modules from it into the program'],
  ['BASH_ENV', 'bash runs the file it names before a script'],
  ['ENV', 'sh runs the file it names at startup'],
  ['BASH_FUNC_*', 'bash imports functions from it that replace commands in a script'],
  ['SHELLOPTS', 'bash takes options from it (xtrace runs PS4)'],
  ['BASHOPTS', 'bash takes options from it'],
  ['PS4', 'bash expands it, running any $(...) in it, when tracing'],
  ['NODE_OPTIONS', 'node takes options from it, --require among them'],
  ['PYTHONPATH', 'python imports modules from it'],
  ['PERL5LIB', 'perl loads modules from it'],
  ['PERL5OPT', 'perl takes options from it, -M among them'],
  ['RUBYOPT', 'ruby takes options from it, -r among them'],
  ['RUBYLIB', 'ruby loads libraries from it'],
];

// Matched case-insensitively: refusing a harmless `path` costs less than missing a variant.
function lockedReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [pattern, why] of LOCKED_ENV) {
    const hit = pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern;
    if (hit) return why;
  }
  return undefined;
}

/**
 * Refuses (INVALID_ARGUMENTS) `env` names no environment can hold: empty, or with "=" or a NUL.
 * Checked with or without an allow-list: `{"LD_PRELOAD=/x.so:": ""}` would otherwise reach the
 * program as the variable LD_PRELOAD, past any check on names.
 */
export function checkEnvNames(env: Record<string, string> | undefined): void {
  for (const name of Object.keys(env ?? {})) {
    if (name === '' || name.includes('=') || name.includes('\0'))
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `shell.exec: "env" has the variable name ${JSON.stringify(name)}, and a name must be non-empty, without "=" or NUL: pass the name and the value separately, as {"NAME": "value"}`,
      );
  }
}

// True for a regular file the service may execute, as execvp() would pick it.
function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes an allowed command run what the allow-list author meant, whatever else the caller sends:
 * refuses (INVALID_ARGUMENTS, naming the variable and why) `env` entries from {@link LOCKED_ENV},
 * and resolves a program given by name to a full path with the service's own PATH, so the caller's
 * environment plays no part in choosing it (relative PATH entries are skipped: they would follow
 * the caller's `cwd`). A program written as a path is kept as the pattern matched it. The program
 * still sees its name as written in argv[0].
 *
 * @example
 * confine({ file: 'uptime', args: [], display: 'uptime' }, undefined);
 * // { file: '/usr/bin/uptime', argv0: 'uptime', args: [], display: 'uptime' }
 * confine(plan, { PATH: '/tmp' }); // throws INVALID_ARGUMENTS: "PATH" ... chooses which program ...
 */
export function confine(plan: CommandPlan, env: Record<string, string> | undefined): CommandPlan {
  for (const name of Object.keys(env ?? {})) {
    const why = lockedReason(name);
    if (why)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `shell.exec: with shell.allow set, "env" cannot set ${JSON.stringify(name)}: ${why}, so it could run something shell.allow does not allow. Leave it out (the command gets the service's own), or run a wrapper script listed in shell.allow that sets it`,
      );
  }
  if (plan.file.includes('/')) return plan;
  // execvp's default when PATH is unset.
  const path = process.env.PATH ?? '/bin:/usr/bin';
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const full = join(dir, plan.file);
    if (isExecutable(full)) return { ...plan, file: full, argv0: plan.file };
  }
  throw new PipitError(
    'ACTION_FAILED',
    `shell.exec: cannot start ${plan.display}: program ${JSON.stringify(plan.file)} not found in the service's PATH (${path}): install it there, or allow it by its full path in shell.allow`,
  );
}
