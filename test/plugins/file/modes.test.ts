import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { fileApp } from './file-app.ts';
import type { FileApp } from './file-app.ts';

describe('file modes: setuid and setgid', () => {
  let f: FileApp;
  let t: TestApp;
  let root: string;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeAll(async () => {
    f = await fileApp();
    ({ t, root } = f);
  });
  afterAll(() => f.close());

  it('refuses setuid and setgid in file.write, file.chmod, file.touch and file.mkdir', async () => {
    writeFileSync(at('tool'), '#!/bin/sh\n');
    chmodSync(at('tool'), 0o755);
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['file.write', { file: 'new-tool', content: '#!/bin/sh\n', mode: '4755' }],
      ['file.write', { file: 'new-tool', content: '#!/bin/sh\n', mode: 0o2755 }],
      ['file.chmod', { file: 'tool', mode: '4755' }],
      ['file.chmod', { file: 'tool', mode: '2777' }],
      ['file.chmod', { file: 'tool', mode: '0o6755' }],
      ['file.touch', { file: 'new-tool', mode: '4755' }],
      ['file.mkdir', { directory: 'shared', mode: '2775' }],
    ];
    for (const [action, args] of attempts) {
      const res = await call(t, action, args);
      expect(res.code, `${action} ${JSON.stringify(args)}`).toBe('INVALID_ARGUMENTS');
      expect(res.errors.join('\n')).toMatch(/sets setuid or setgid/);
    }
    expect(existsSync(at('new-tool'))).toBe(false);
    expect(existsSync(at('shared'))).toBe(false);
    expect(statSync(at('tool')).mode & 0o7777).toBe(0o755);
  });

  it('allows the sticky bit, which on a directory only limits who may delete in it', async () => {
    mkdirSync(at('drop'));
    expect((await call(t, 'file.chmod', { file: 'drop', mode: '1777' })).errors).toEqual([]);
    expect(statSync(at('drop')).mode & 0o7777).toBe(0o1777);
  });

  it('drops setuid and setgid from the mode it keeps when it rewrites a file', async () => {
    writeFileSync(at('kept'), 'old');
    chmodSync(at('kept'), 0o4755);
    expect(statSync(at('kept')).mode & 0o7777).toBe(0o4755);
    expect((await call(t, 'file.write', { file: 'kept', content: 'new' })).errors).toEqual([]);
    expect(statSync(at('kept')).mode & 0o7777).toBe(0o755);
  });

  it('copies a tree with its modes and links, and only to a new path', async () => {
    mkdirSync(at('tree', 'sub'), { recursive: true });
    writeFileSync(at('tree', 'sub', 'a.txt'), 'a');
    chmodSync(at('tree', 'sub', 'a.txt'), 0o640);
    chmodSync(at('tree', 'sub'), 0o750);
    symlinkSync('sub/a.txt', at('tree', 'link'));
    const res = await call(t, 'file.copy', { source: 'tree', target: 'copy', recursive: true });
    expect(res.errors).toEqual([]);
    expect(readFileSync(at('copy', 'sub', 'a.txt'), 'utf8')).toBe('a');
    expect(statSync(at('copy', 'sub', 'a.txt')).mode & 0o7777).toBe(0o640);
    expect(statSync(at('copy', 'sub')).mode & 0o7777).toBe(0o750);
    expect(lstatSync(at('copy', 'link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('copy', 'link'))).toBe('sub/a.txt');
    mkdirSync(at('existing'));
    mkdirSync(at('existing', 'tree'));
    const again = await call(t, 'file.copy', {
      source: 'tree',
      target: 'existing',
      recursive: true,
    });
    expect(again.errors[0]).toBe(
      `file.copy: ${at('existing', 'tree')} already exists, and a directory is copied only to a new path: delete it first (file.rmdir with recursive: true), or choose another target`,
    );
  });
});
