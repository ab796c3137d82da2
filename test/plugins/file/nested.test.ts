import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { fileApp } from './file-app.ts';
import type { FileApp } from './file-app.ts';

describe('file writes through links without roots', () => {
  let t: TestApp;
  let dir: string;
  let cleanup: () => void;

  beforeAll(async () => {
    const tmp = tempDir();
    cleanup = tmp.cleanup;
    dir = tmp.dir;
    t = await makeApp('file: {}\n', { dir });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });

  it('writes and appends to the target of a symbolic link, which stays a link', async () => {
    const real = join(dir, 'real.txt');
    const link = join(dir, 'link.txt');
    writeFileSync(real, 'original\n');
    symlinkSync(real, link);
    const res = await call(t, 'file.append', { file: link, content: 'appended\n' });
    expect(res.output).toEqual({ file: real, size: 9 });
    await call(t, 'file.write', { file: link, content: 'more\n', append: true });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(readFileSync(real, 'utf8')).toBe('original\nappended\nmore\n');
  });
});

describe('nested file.roots', () => {
  let f: FileApp;
  let t: TestApp;
  let root: string;
  let inner: string;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeAll(async () => {
    f = await fileApp({
      roots: (r) => [join(r, 'mid', 'inner')],
      prepare: (r) => {
        mkdirSync(join(r, 'mid', 'inner'), { recursive: true });
        writeFileSync(join(r, 'mid', 'inner', 'keep.txt'), 'x');
      },
    });
    ({ t, root } = f);
    inner = join(root, 'mid', 'inner');
  });
  afterAll(() => f.close());

  it('refuses to delete, move or rename a directory that holds a root', async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['file.delete', { file: 'mid', recursive: true }],
      ['file.rmdir', { directory: 'mid', recursive: true }],
      ['file.move', { source: 'mid', target: 'elsewhere' }],
      ['file.rename', { file: 'mid', name: 'elsewhere' }],
    ];
    for (const [action, args] of attempts) {
      const res = await call(t, action, args);
      expect(res.reason, action).toBe('FORBIDDEN');
      expect(res.errors[0]).toMatch(
        new RegExp(`^${action}: .*${at('mid')} holds ${inner}, one of file.roots, and cannot be`),
      );
    }
    expect(readFileSync(join(inner, 'keep.txt'), 'utf8')).toBe('x');
    expect(existsSync(at('elsewhere'))).toBe(false);
  });

  it('refuses to rename a directory onto an (empty) root', async () => {
    const empty = join(inner, 'empty');
    mkdirSync(empty);
    mkdirSync(at('other'));
    const t2 = await makeApp(
      `file:\n  roots: [${JSON.stringify(root)}, ${JSON.stringify(empty)}]\n`,
    );
    try {
      const res = await call(t2, 'file.rename', { file: at('other'), name: empty });
      expect(res.reason).toBe('FORBIDDEN');
      expect(existsSync(at('other'))).toBe(true);
    } finally {
      await t2.close();
    }
  });

  it('names the target, not the source, when moving onto a directory that is not empty', async () => {
    mkdirSync(at('x'));
    writeFileSync(at('x', 'new.txt'), 'n');
    mkdirSync(at('dst', 'x'), { recursive: true });
    writeFileSync(at('dst', 'x', 'old.txt'), 'o');
    const res = await call(t, 'file.move', { source: 'x', target: 'dst' });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors[0]).toBe(
      `file.move: cannot move ${at('x')} to ${at('dst', 'x')}: the target ${at('dst', 'x')} is a directory that is not empty: delete or move it first, or choose another target`,
    );
    expect(existsSync(at('x', 'new.txt'))).toBe(true);
  });
});
