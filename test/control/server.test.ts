// The control socket is never reachable by another user, not even in the moment between bind()
// (which gives the socket file the umask's mode) and the chmod after it: it is created inside a
// directory of mode 0700, made and checked before the socket exists.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../src/control/private-dir.ts';
import { startControlServer } from '../../src/control/server.ts';
import { controlSocketPath } from '../../src/control/socket-path.ts';
import { makeApp, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

// Watches `path` in a tight loop from another process, and prints one line per sighting of the
// socket while it still has group or other bits (before the chmod), with its directory's mode then.
const WATCHER = `
const { lstatSync } = require('node:fs');
const [path, dir] = process.argv.slice(1);
const stopAt = Date.now() + 30000;
process.stdout.write('ready\\n');
for (let i = 0; Date.now() < stopAt; i++) {
  let sock;
  try { sock = lstatSync(path).mode & 0o777; } catch { continue; }
  if (!(sock & 0o077)) continue;
  let dirMode = -1;
  try { dirMode = lstatSync(dir).mode & 0o777; } catch {}
  process.stdout.write(JSON.stringify({ sock, dir: dirMode }) + '\\n');
}
`;

let t: TestApp;
let tmp: ReturnType<typeof tempDir>;
let workdir: string;

beforeAll(async () => {
  tmp = tempDir();
  t = await makeApp('', { dir: tmp.dir });
  workdir = t.service.config.workdir;
  // A workdir others may enter (say /var/lib/pipit made 0755 by a package), on a path they can
  // walk: only the control socket's own directory may keep them out.
  for (const dir of [tmp.dir, workdir]) chmodSync(dir, 0o755);
});
afterAll(async () => {
  await t.close();
  tmp.cleanup();
});

describe('the control socket', () => {
  it('is created in a 0700 directory of the service user, and is 0600 itself', async () => {
    const control = await startControlServer(t.service);
    try {
      const path = control.path!;
      expect(path).toBe(controlSocketPath(workdir));
      const dir = lstatSync(dirname(path));
      expect(dir.isDirectory()).toBe(true);
      expect(dir.mode & 0o777).toBe(0o700);
      expect(dir.uid).toBe(process.getuid!());
      expect(lstatSync(path).mode & 0o777).toBe(0o600);
    } finally {
      await control.close();
    }
  });

  it('is never reachable with a permissive mode while it starts, even under umask 000', async () => {
    const path = controlSocketPath(workdir)!;
    const watcher = spawn(process.execPath, ['-e', WATCHER, path, dirname(path)]);
    const sightings: Array<{ sock: number; dir: number }> = [];
    let buffered = '';
    watcher.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines)
        if (line.startsWith('{')) sightings.push(JSON.parse(line) as { sock: number; dir: number });
    });
    const previous = process.umask(0);
    try {
      await once(watcher.stdout, 'data');
      // Restarts until the watcher has seen the socket before its chmod a few times: the window
      // the fix must make harmless, seen for real.
      const deadline = Date.now() + 15_000;
      while (sightings.length < 5 && Date.now() < deadline) {
        const control = await startControlServer(t.service);
        await control.close();
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      process.umask(previous);
      watcher.kill();
    }
    expect(sightings.length, 'the watcher never saw the socket before its chmod').toBeGreaterThan(
      0,
    );
    // Whatever the socket's own mode in that moment, its directory let nobody else in.
    expect(sightings.filter((s) => s.dir & 0o077)).toEqual([]);
  }, 30_000);

  it('refuses a directory that is a symbolic link, or that another user owns', () => {
    const elsewhere = join(tmp.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const link = join(tmp.dir, 'link');
    symlinkSync(elsewhere, link);
    expect(() => ensurePrivateDir(link)).toThrow(/is a symbolic link: remove it/);

    let foreign = '/';
    if (process.getuid!() === 0) {
      foreign = join(tmp.dir, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 65534, 65534);
    }
    expect(() => ensurePrivateDir(foreign)).toThrow(
      /belongs to user id \d+, not to the service's user/,
    );
  });

  it('tightens a directory of its own that has group or other bits', () => {
    const dir = join(tmp.dir, 'loose');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    ensurePrivateDir(dir);
    expect(lstatSync(dir).mode & 0o777).toBe(0o700);
  });
});
