// Every file in the workdir is 0600, whatever the umask and the directory's mode.
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken, tempDir } from '../helpers/service.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('workdir file modes', () => {
  it('creates pipit.db, its -wal/-shm and jwt.key 0600 under umask 0 in a 0777 directory', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const workdir = join(tmp.dir, 'data');
    mkdirSync(workdir);
    chmodSync(workdir, 0o777);
    const previous = process.umask(0);
    cleanups.push(() => process.umask(previous));
    const t = await makeApp('', { dir: tmp.dir });
    await registerAndToken(t.app);
    const files = readdirSync(workdir);
    expect(files).toEqual(
      expect.arrayContaining(['pipit.db', 'pipit.db-wal', 'pipit.db-shm', 'jwt.key']),
    );
    for (const file of files) expect([file, modeOf(join(workdir, file))]).toEqual([file, 0o600]);
    await t.close();
  });

  it('narrows a database left 0644 by an older version', async () => {
    const tmp = tempDir();
    cleanups.push(tmp.cleanup);
    const workdir = join(tmp.dir, 'data');
    mkdirSync(workdir);
    writeFileSync(join(workdir, 'pipit.db'), '');
    chmodSync(join(workdir, 'pipit.db'), 0o644);
    const t = await makeApp('', { dir: tmp.dir });
    expect(modeOf(join(workdir, 'pipit.db'))).toBe(0o600);
    await t.close();
  });
});
