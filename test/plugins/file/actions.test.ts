import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { fileApp } from './file-app.ts';
import type { FileApp } from './file-app.ts';

describe('file actions', () => {
  let f: FileApp;
  let t: TestApp;
  let root: string;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeAll(async () => {
    f = await fileApp({ extra: ['max_read_bytes: 1024', 'max_list_entries: 50'] });
    ({ t, root } = f);
  });
  afterAll(() => f.close());

  it("writes and reads text, as Platypush's file.write(file, content) does", async () => {
    const res = await call(t, 'file.write', { file: 'notes.txt', content: 'héllo\n' });
    expect(res.output).toEqual({ file: at('notes.txt'), size: 7 });
    expect(readFileSync(at('notes.txt'), 'utf8')).toBe('héllo\n');
    expect((await call(t, 'file.read', { file: 'notes.txt' })).output).toBe('héllo\n');
  });

  it('appends, with write append: true and file.append', async () => {
    await call(t, 'file.write', { file: 'log.txt', content: 'a\n' });
    await call(t, 'file.write', { file: 'log.txt', content: 'b\n', append: true });
    await call(t, 'file.append', { file: 'log.txt', content: 'c\n' });
    await Promise.all(
      ['d', 'e', 'f'].map((c) => call(t, 'file.append', { file: 'log.txt', content: `${c}\n` })),
    );
    const lines = readFileSync(at('log.txt'), 'utf8').split('\n').filter(Boolean);
    expect(lines.slice(0, 3)).toEqual(['a', 'b', 'c']);
    expect(lines.slice(3).sort()).toEqual(['d', 'e', 'f']);
  });

  it('writes and reads binary content as base64, and other values as JSON', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
    await call(t, 'file.write', {
      file: 'blob.bin',
      content: bytes.toString('base64'),
      encoding: 'base64',
    });
    expect(readFileSync(at('blob.bin'))).toEqual(bytes);
    expect((await call(t, 'file.read', { file: 'blob.bin', encoding: 'base64' })).output).toBe(
      bytes.toString('base64'),
    );
    await call(t, 'file.write', { file: 'data.json', content: { a: [1, 2] } });
    expect(readFileSync(at('data.json'), 'utf8')).toBe('{"a":[1,2]}');
    const missing = await call(t, 'file.write', { file: 'nothing.txt' });
    expect(missing.code).toBe('INVALID_ARGUMENTS');
    expect(missing.errors[0]).toMatch(/^file\.write: argument "content"/);
    expect(existsSync(at('nothing.txt'))).toBe(false);
  });

  it('keeps the permissions of a file it replaces, or sets the given mode', async () => {
    writeFileSync(at('private.txt'), 'x');
    chmodSync(at('private.txt'), 0o600);
    await call(t, 'file.write', { file: 'private.txt', content: 'y' });
    expect(statSync(at('private.txt')).mode & 0o777).toBe(0o600);
    await call(t, 'file.write', { file: 'script.sh', content: '#!/bin/sh\n', mode: '0750' });
    expect(statSync(at('script.sh')).mode & 0o777).toBe(0o750);
  });

  it('refuses reads over max_read_bytes, and reads parts with offset and size', async () => {
    writeFileSync(at('big.txt'), 'x'.repeat(2000) + 'END');
    const res = await call(t, 'file.read', { file: 'big.txt' });
    expect(res.errors[0]).toBe(
      `file.read: ${at('big.txt')} is 2003 bytes, over file.max_read_bytes (1024): read it in parts with "offset" and "size", or raise file.max_read_bytes`,
    );
    expect((await call(t, 'file.read', { file: 'big.txt', offset: 2000, size: 10 })).output).toBe(
      'END',
    );
    expect((await call(t, 'file.read', { file: 'big.txt', size: 5000 })).errors[0]).toMatch(
      /"size" 5000 is over/,
    );
  });

  it('names the path in errors', async () => {
    expect((await call(t, 'file.read', { file: 'missing.txt' })).errors[0]).toBe(
      `file.read: ${at('missing.txt')} does not exist`,
    );
    expect(
      (await call(t, 'file.write', { file: 'no/such/dir/x.txt', content: '' })).errors[0],
    ).toBe(`file.write: ${at('no/such/dir/x.txt')} does not exist`);
    mkdirSync(at('full'));
    writeFileSync(at('full', 'x'), '');
    expect((await call(t, 'file.rmdir', { directory: 'full' })).errors[0]).toBe(
      `file.rmdir: ${at('full')} is a directory that is not empty`,
    );
    expect((await call(t, 'file.delete', { file: 'full' })).errors[0]).toMatch(
      /is a directory: pass recursive: true/,
    );
    expect((await call(t, 'file.read', { file: 'full' })).errors[0]).toMatch(/is a directory/);
    expect((await call(t, 'file.mkdir', { directory: 'full', exist_ok: false })).errors[0]).toMatch(
      /already exists/,
    );
  });

  it('creates parents on request, and mkdir/rmdir directories', async () => {
    expect(
      (await call(t, 'file.write', { file: 'deep/er/x.txt', content: 'x', parents: true })).errors,
    ).toEqual([]);
    expect((await call(t, 'file.mkdir', { directory: 'made/a/b' })).output).toEqual({
      directory: at('made/a/b'),
      created: true,
    });
    expect((await call(t, 'file.mkdir', { directory: 'made/a/b' })).output).toMatchObject({
      created: false,
    });
    expect((await call(t, 'file.rmdir', { directory: 'made/a/b' })).errors).toEqual([]);
    expect(existsSync(at('made/a/b'))).toBe(false);
    expect((await call(t, 'file.rmdir', { directory: 'made', recursive: true })).errors).toEqual(
      [],
    );
    expect(existsSync(at('made'))).toBe(false);
  });

  it('copies, moves and renames files and directories', async () => {
    writeFileSync(at('src.txt'), 'source');
    chmodSync(at('src.txt'), 0o640);
    expect((await call(t, 'file.copy', { source: 'src.txt', target: 'copy.txt' })).errors).toEqual(
      [],
    );
    expect(readFileSync(at('copy.txt'), 'utf8')).toBe('source');
    expect(statSync(at('copy.txt')).mode & 0o777).toBe(0o640);
    expect(
      (await call(t, 'file.copy', { source: 'src.txt', target: 'copy.txt', overwrite: false }))
        .errors[0],
    ).toBe(`file.copy: ${at('copy.txt')} already exists (pass overwrite: true to replace it)`);
    mkdirSync(at('box'));
    expect((await call(t, 'file.copy', { source: 'src.txt', target: 'box' })).output).toEqual({
      source: at('src.txt'),
      target: at('box', 'src.txt'),
    });
    expect((await call(t, 'file.copy', { source: 'box', target: 'box2' })).errors[0]).toMatch(
      /pass recursive: true/,
    );
    expect(
      (await call(t, 'file.copy', { source: 'box', target: 'box2', recursive: true })).errors,
    ).toEqual([]);
    expect(readFileSync(at('box2', 'src.txt'), 'utf8')).toBe('source');
    expect(
      (await call(t, 'file.move', { source: 'copy.txt', target: 'box' })).output,
    ).toMatchObject({ target: at('box', 'copy.txt') });
    expect(existsSync(at('copy.txt'))).toBe(false);
    expect((await call(t, 'file.rename', { file: 'box2', name: 'box3' })).errors).toEqual([]);
    expect(existsSync(at('box3', 'src.txt'))).toBe(true);
  });

  it('deletes and unlinks', async () => {
    writeFileSync(at('gone.txt'), '');
    expect((await call(t, 'file.delete', { file: 'gone.txt' })).errors).toEqual([]);
    expect(existsSync(at('gone.txt'))).toBe(false);
    writeFileSync(at('gone2.txt'), '');
    expect((await call(t, 'file.unlink', { file: 'gone2.txt' })).errors).toEqual([]);
    expect((await call(t, 'file.unlink', { file: 'box3' })).errors[0]).toMatch(/box3/);
    expect((await call(t, 'file.delete', { file: 'box3', recursive: true })).errors).toEqual([]);
    expect(existsSync(at('box3'))).toBe(false);
  });

  it('lists a directory, directories first, with glob and recursion, within max_list_entries', async () => {
    mkdirSync(at('tree/sub/deeper'), { recursive: true });
    for (const f of ['a.txt', 'b.log', '.hidden.txt', 'sub/c.txt', 'sub/deeper/d.txt'])
      writeFileSync(at('tree', f), f);
    const flat = (await call(t, 'file.list', { path: 'tree' })).output as {
      name: string;
      type: string;
    }[];
    expect(flat.map((e) => `${e.type}:${e.name}`)).toEqual([
      'directory:sub',
      'file:.hidden.txt',
      'file:a.txt',
      'file:b.log',
    ]);
    const txt = (await call(t, 'file.list', { path: 'tree', glob: '*.txt' })).output as {
      path: string;
    }[];
    expect(txt.map((e) => e.path)).toEqual([at('tree/a.txt')]);
    const deep = (await call(t, 'file.list', { path: 'tree', glob: '**/*.txt' })).output as {
      path: string;
    }[];
    expect(deep.map((e) => e.path)).toEqual([
      at('tree/a.txt'),
      at('tree/sub/c.txt'),
      at('tree/sub/deeper/d.txt'),
    ]);
    const all = (await call(t, 'file.list', { path: 'tree', recursive: true })).output as unknown[];
    expect(all).toHaveLength(7);
    expect((await call(t, 'file.list', { path: 'tree/a.txt' })).output).toMatchObject([
      { type: 'file', name: 'a.txt', size: 5 },
    ]);
    for (let i = 0; i < 60; i++) writeFileSync(at('tree', `many-${i}`), '');
    expect((await call(t, 'file.list', { path: 'tree' })).errors[0]).toMatch(
      /more than 50 matching entries \(file.max_list_entries\)/,
    );
  });

  it('stats, tests existence, sizes, touches, chmods and links', async () => {
    writeFileSync(at('s.txt'), '12345');
    chmodSync(at('s.txt'), 0o644);
    const st = (await call(t, 'file.stat', { file: 's.txt' })).output as Record<string, unknown>;
    expect(st).toMatchObject({
      path: at('s.txt'),
      name: 's.txt',
      type: 'file',
      size: 5,
      mode: '0644',
    });
    expect(Math.abs((st.modified as number) - statSync(at('s.txt')).mtimeMs / 1000)).toBeLessThan(
      0.01,
    );
    expect((await call(t, 'file.exists', { file: 's.txt' })).output).toBe(true);
    expect((await call(t, 'file.exists', { file: 'nope.txt' })).output).toBe(false);
    expect((await call(t, 'file.getsize', { file: 's.txt' })).output).toBe(5);
    expect((await call(t, 'file.touch', { file: 'new.txt' })).errors).toEqual([]);
    expect(statSync(at('new.txt')).size).toBe(0);
    expect((await call(t, 'file.chmod', { file: 's.txt', mode: '600' })).errors).toEqual([]);
    expect(statSync(at('s.txt')).mode & 0o777).toBe(0o600);
    expect((await call(t, 'file.chmod', { file: 's.txt', mode: '9' })).code).toBe(
      'INVALID_ARGUMENTS',
    );
    expect((await call(t, 'file.link', { file: 's.txt', target: 's.link' })).errors).toEqual([]);
    expect(lstatSync(at('s.link')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('s.link'))).toBe(at('s.txt'));
    expect((await call(t, 'file.stat', { file: 's.link', follow: false })).output).toMatchObject({
      type: 'symlink',
      target: at('s.txt'),
    });
    expect(
      (await call(t, 'file.link', { file: 's.txt', target: 's.hard', symbolic: false })).errors,
    ).toEqual([]);
    expect(statSync(at('s.hard')).ino).toBe(statSync(at('s.txt')).ino);
    expect((await call(t, 'file.home')).output).toBe(homedir());
  });

  it('shows every action in the catalog (the Execute tab)', () => {
    const plugin = t.service.registry.catalog().find((p) => p.name === 'file')!;
    expect(plugin.actions.map((a) => a.name)).toEqual(
      [
        'append',
        'chmod',
        'copy',
        'delete',
        'exists',
        'getsize',
        'home',
        'link',
        'list',
        'mkdir',
        'move',
        'read',
        'rename',
        'rmdir',
        'stat',
        'touch',
        'unlink',
        'write',
      ].map((a) => `file.${a}`),
    );
  });
});
