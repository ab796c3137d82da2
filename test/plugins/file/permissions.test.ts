import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/service.ts';

const CHILD = join(import.meta.dirname, 'user-child.ts');
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

// Root may write any file, so the check needs another user: as root, the action runs in a child
// process as nobody (through setpriv); otherwise the suite's own user is unprivileged enough.
function runAs(dir: string, root: string, action: string, args: Record<string, unknown>) {
  const argv = [CHILD, dir, root, action, JSON.stringify(args)];
  const [cmd, ...rest] = asRoot
    ? [setpriv!, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath]
    : [process.execPath];
  const out = execFileSync(cmd, [...rest, ...argv], { encoding: 'utf8', cwd: dir });
  return JSON.parse(out) as { errors: string[]; code?: string; reason?: unknown };
}

// As root, the child runs as nobody: that user must be able to run this Node and read this checkout
// (a clone under /root is not readable by others; the tests cannot run there and are skipped).
function nobodyCanRunTheChild(): boolean {
  if (!setpriv) return false;
  try {
    const probe = `require('node:fs').accessSync(${JSON.stringify(CHILD)})`;
    execFileSync(
      setpriv,
      [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', process.execPath, '-e', probe],
      { stdio: 'ignore', cwd: '/' },
    );
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(asRoot && !nobodyCanRunTheChild())(
  'file writes and the permissions of files',
  () => {
    let dir: string;
    let root: string;
    let cleanup: () => void;
    const at = (...parts: string[]) => join(root, ...parts);
    const own = (path: string) => {
      if (asRoot) chownSync(path, NOBODY, NOBODY);
    };

    beforeAll(() => {
      const tmp = tempDir();
      cleanup = tmp.cleanup;
      dir = tmp.dir;
      chmodSync(dir, 0o755);
      own(dir);
      root = join(dir, 'root');
      mkdirSync(root);
      own(root);
    });
    afterAll(() => cleanup());

    it('refuses to replace or append to a read-only file, naming it', () => {
      writeFileSync(at('readonly.txt'), 'keep me');
      chmodSync(at('readonly.txt'), 0o444);
      own(at('readonly.txt'));
      for (const action of ['file.write', 'file.append']) {
        const res = runAs(dir, root, action, { file: 'readonly.txt', content: 'overwritten' });
        expect(res.errors, action).toEqual([
          `${action}: ${at('readonly.txt')} is not writable by the service user (mode 0444): make it writable first (file.chmod), or write to another path`,
        ]);
      }
      expect(readFileSync(at('readonly.txt'), 'utf8')).toBe('keep me');
      expect(statSync(at('readonly.txt')).mode & 0o777).toBe(0o444);
    });

    it("copies a read-only file, giving the copy the source's mode", () => {
      writeFileSync(at('src.txt'), 'source');
      chmodSync(at('src.txt'), 0o444);
      own(at('src.txt'));
      const res = runAs(dir, root, 'file.copy', { source: 'src.txt', target: 'copy.txt' });
      expect(res.errors).toEqual([]);
      expect(readFileSync(at('copy.txt'), 'utf8')).toBe('source');
      expect(statSync(at('copy.txt')).mode & 0o777).toBe(0o444);
      expect(readdirSync(root).filter((n) => n.startsWith('.'))).toEqual([]);
    });
  },
);
