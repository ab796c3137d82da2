import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { PipitError } from '../api/index.ts';
import type { CommandPlan } from './allow.ts';

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
 * Makes an allowed command run what the allow-list author meant, whatever `env` the caller sends
 * (checked apart, by checkAllowedEnv in env.ts): resolves a program given by name to a full path
 * with the service's own PATH, so the caller's environment plays no part in choosing it (relative
 * PATH entries are skipped: they would follow the caller's `cwd`). A program written as a path is
 * kept as the pattern matched it. The program still sees its name as written in argv[0].
 *
 * @example
 * confine({ file: 'uptime', args: [], display: 'uptime' });
 * // { file: '/usr/bin/uptime', argv0: 'uptime', args: [], display: 'uptime' }
 */
export function confine(plan: CommandPlan): CommandPlan {
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
