import {
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { pipitDir } from './file-app.ts';

describe('file.roots', () => {
  let t: TestApp;
  let root: string;
  let outside: string;
  let cleanup: () => void;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    // The root is reached through a symbolic link: confinement compares resolved paths.
    const realRoot = join(tmp.dir, 'real-root');
    mkdirSync(join(realRoot, 'sub'), { recursive: true });
    root = join(tmp.dir, 'root');
    symlinkSync(realRoot, root);
    outside = join(tmp.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'top secret');
    writeFileSync(join(realRoot, 'inside.txt'), 'hello');
    symlinkSync(join(outside, 'secret.txt'), join(realRoot, 'leak.txt'));
    symlinkSync(outside, join(realRoot, 'leakdir'));
    symlinkSync(join(realRoot, 'inside.txt'), join(realRoot, 'alias.txt'));
    symlinkSync(join(outside, 'nothing-yet.txt'), join(realRoot, 'dangling.txt'));
    t = await makeApp(`file:\n  roots: [${JSON.stringify(root)}]\n`, {
      dir: pipitDir(tmp.dir),
    });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it('reads inside the root, by absolute path, relative path and through a link that stays inside', async () => {
    expect((await call(t, 'file.read', { file: join(root, 'inside.txt') })).output).toBe('hello');
    expect((await call(t, 'file.read', { file: 'inside.txt' })).output).toBe('hello');
    expect((await call(t, 'file.read', { file: 'sub/../alias.txt' })).output).toBe('hello');
  });

  it('refuses absolute paths outside, naming the path and the fix', async () => {
    const res = await call(t, 'file.read', { file: join(outside, 'secret.txt') });
    expect(res.reason).toBe('FORBIDDEN');
    expect(res.errors[0]).toContain(
      `file.read: "file" ${join(outside, 'secret.txt')} is outside file.roots (${realpathSync(root)})`,
    );
    expect(res.errors[0]).toMatch(/add its directory to file.roots/);
    expect(
      (await call(t, 'file.write', { file: '/tmp/pipit-escape.txt', content: 'x' })).reason,
    ).toBe('FORBIDDEN');
    expect(existsSync('/tmp/pipit-escape.txt')).toBe(false);
  });

  it('refuses ".." that climbs out', async () => {
    for (const file of [
      '../outside/secret.txt',
      'sub/../../outside/secret.txt',
      `${root}/../outside/secret.txt`,
    ]) {
      const res = await call(t, 'file.read', { file });
      expect(res.reason, file).toBe('FORBIDDEN');
      expect(res.errors[0]).toContain(join(outside, 'secret.txt'));
    }
    const write = await call(t, 'file.write', { file: '../outside/new.txt', content: 'x' });
    expect(write.reason).toBe('FORBIDDEN');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses symbolic links that lead out, for reading, writing, listing and stat', async () => {
    const read = await call(t, 'file.read', { file: 'leak.txt' });
    expect(read.reason).toBe('FORBIDDEN');
    expect(read.errors[0]).toContain(`(it resolves to ${join(outside, 'secret.txt')})`);
    expect((await call(t, 'file.write', { file: 'leak.txt', content: 'pwned' })).reason).toBe(
      'FORBIDDEN',
    );
    expect(
      (await call(t, 'file.write', { file: 'leakdir/new.txt', content: 'pwned' })).reason,
    ).toBe('FORBIDDEN');
    expect((await call(t, 'file.list', { path: 'leakdir' })).reason).toBe('FORBIDDEN');
    expect((await call(t, 'file.stat', { file: 'leak.txt' })).reason).toBe('FORBIDDEN');
    expect((await call(t, 'file.copy', { source: 'leak.txt', target: 'copy.txt' })).reason).toBe(
      'FORBIDDEN',
    );
    expect((await call(t, 'file.copy', { source: 'inside.txt', target: 'leakdir' })).reason).toBe(
      'FORBIDDEN',
    );
    expect((await call(t, 'file.move', { source: 'inside.txt', target: 'leakdir/x' })).reason).toBe(
      'FORBIDDEN',
    );
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'x'))).toBe(false);
  });

  it('refuses writing through a link to nothing (it would create the target outside)', async () => {
    const res = await call(t, 'file.write', { file: 'dangling.txt', content: 'x' });
    expect(res.errors[0]).toMatch(/symbolic link to something that does not exist/);
    expect(existsSync(join(outside, 'nothing-yet.txt'))).toBe(false);
  });

  it('deletes a link that leads out without touching its target; a root itself is kept', async () => {
    expect((await call(t, 'file.stat', { file: 'leak.txt', follow: false })).output).toMatchObject({
      type: 'symlink',
    });
    expect((await call(t, 'file.delete', { file: 'leak.txt' })).errors).toEqual([]);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
    expect((await call(t, 'file.exists', { file: 'leak.txt' })).output).toBe(false);
    const rootDelete = await call(t, 'file.rmdir', {
      directory: realpathSync(root),
      recursive: true,
    });
    expect(rootDelete.errors[0]).toMatch(/is one of file.roots and cannot be removed/);
    // The link that leads to the root lives outside it: removing the link is refused too.
    expect((await call(t, 'file.delete', { file: root })).reason).toBe('FORBIDDEN');
    expect(existsSync(join(root, 'inside.txt'))).toBe(true);
  });

  it('refuses a link created to point out', async () => {
    const res = await call(t, 'file.link', {
      file: join(outside, 'secret.txt'),
      target: 'new-link',
    });
    expect(res.reason).toBe('FORBIDDEN');
    expect(existsSync(join(root, 'new-link'))).toBe(false);
  });
});

describe('file disabled by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('');
  });
  afterAll(() => t.close());

  it('answers with how to enable it and what that means', async () => {
    const res = await call(t, 'file.read', { file: '/etc/hostname' });
    expect(res.code).toBe('NOT_FOUND');
    expect(res.errors[0]).toMatch(
      /plugin "file" is not enabled: it reads, writes and deletes files on this host as the service's user/,
    );
    expect(res.errors[0]).toMatch(/Add "file: \{\}"/);
  });
});
