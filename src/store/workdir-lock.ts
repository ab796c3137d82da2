import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PipitError } from '../core/errors.ts';

/** The lock file of a running instance, in its workdir: it holds the instance's PID. */
export const LOCK_FILE = 'pipit.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the workdir for this process, so that two instances never share one database, cron
 * schedule and control socket. A lock left by a process that is gone (a crash, `kill -9`) is taken
 * over. Refused with CONFIG_INVALID (exit 78) naming the other instance's PID while it runs.
 * Returns the function that releases the lock.
 *
 * @example
 * const release = lockWorkdir('/var/lib/pipit');
 * // ... on stop
 * release();
 */
export function lockWorkdir(workdir: string): () => void {
  const path = join(workdir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (Number(readFileSync(path, 'utf8')) === process.pid) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new PipitError(
        'CONFIG_INVALID',
        `another Pipit (PID ${pid}) is already running with the workdir ${workdir}: stop it first, or give this instance its own "workdir" in its configuration`,
      );
    }
    // Left behind by an instance that is gone: take it over.
    unlinkSync(path);
  }
  throw new PipitError(
    'CONFIG_INVALID',
    `could not take the lock ${path}: another instance is starting`,
  );
}
