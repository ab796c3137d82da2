import { PipitError } from '../api/index.ts';

/**
 * Environment variables that decide which code runs rather than what a program is given: with
 * `shell.allow` set, a caller could use them to run something the list does not allow (a PATH that
 * finds another `uptime`, a library preloaded into an allowed program, a startup file for a shell
 * script). A name ending in `*` is a prefix. They stay refused even when `shell.allow_env` lists
 * them: no allow-list entry can make them safe, and a wrapper script can set them itself.
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

/**
 * Why a variable is in {@link LOCKED_ENV}, or undefined. Matched case-insensitively: refusing a
 * harmless `path` costs less than missing a variant.
 *
 * @example
 * lockedReason('ld_preload'); // 'the dynamic loader loads libraries it names into the program'
 */
export function lockedReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [pattern, why] of LOCKED_ENV) {
    const hit = pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern;
    if (hit) return why;
  }
  return undefined;
}

/** A `shell.allow_env` entry: a variable name, or a prefix ending in `*` (`LC_*`). */
export const ENV_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/**
 * Refuses (INVALID_ARGUMENTS) `env` names no environment can hold: empty, or with "=" or a NUL.
 * Checked with or without an allow-list: `{"LD_PRELOAD=/x.so:": ""}` would otherwise reach the
 * program as the variable LD_PRELOAD, past any check on names.
 *
 * @example
 * checkEnvNames({ 'A=B': 'x' }); // throws INVALID_ARGUMENTS
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

/**
 * Under `shell.allow`, the variables a call may set are an allow-list too: any program reads
 * variables that run code (`GIT_CONFIG_*` sets `core.fsmonitor`, `PERLLIB` and `PYTHONUSERBASE`
 * load modules), so no deny-list can be complete. Refuses (INVALID_ARGUMENTS, naming the variable
 * and the fix) a name in {@link LOCKED_ENV}, listed or not, and any name `allowEnv` does not match:
 * exactly (case-sensitive, as the environment is), or by prefix for an entry ending in `*`.
 *
 * @example
 * checkAllowedEnv({ LANG: 'C' }, ['LANG', 'LC_*']); // passes
 * checkAllowedEnv({ GIT_CONFIG_COUNT: '1' }, []); // throws INVALID_ARGUMENTS: ... add it to shell.allow_env ...
 */
export function checkAllowedEnv(
  env: Record<string, string> | undefined,
  allowEnv: readonly string[],
): void {
  for (const name of Object.keys(env ?? {})) {
    const why = lockedReason(name);
    if (why)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `shell.exec: with shell.allow set, "env" cannot set ${JSON.stringify(name)}: ${why}, so it could run something shell.allow does not allow (shell.allow_env cannot allow it). Leave it out (the command gets the service's own), or run a wrapper script listed in shell.allow that sets it`,
      );
    const listed = allowEnv.some((entry) =>
      entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : name === entry,
    );
    if (!listed)
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `shell.exec: with shell.allow set, "env" may only set the variables in shell.allow_env (${allowEnv.length ? allowEnv.map((e) => JSON.stringify(e)).join(', ') : 'none'}), and ${JSON.stringify(name)} is not one: leave it out, or add it to shell.allow_env in the configuration if no allowed command can be made to run other code with it`,
      );
  }
}
