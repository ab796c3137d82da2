import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { fileApp } from './file-app.ts';
import type { FileApp } from './file-app.ts';

// An action that waits on a FIFO never returns: fail in seconds, not at the test timeout.
function within<T>(promise: Promise<T>, ms = 3000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer in ${ms} ms (hung)`)), ms),
    ),
  ]);
}

describe('file plugin and special files, odd names and content', () => {
  let f: FileApp;
  let t: TestApp;
  let root: string;
  let server: Server;
  const at = (...parts: string[]) => join(root, ...parts);

  beforeAll(async () => {
    server = createServer();
    f = await fileApp({
      extra: ['max_list_entries: 2'],
      prepare: async (dir) => {
        execFileSync('mkfifo', [join(dir, 'fifo')]);
        await new Promise<void>((resolve) => server.listen(join(dir, 'socket'), resolve));
      },
    });
    ({ t, root } = f);
  });
  afterAll(async () => {
    await f.close();
    server.close();
  });

  it('refuses to write or append over a FIFO, a socket or a device, which stay as they are', async () => {
    const special = ['fifo', 'socket'];
    // Only root may create a device node (and not in every container).
    try {
      execFileSync('mknod', [at('null-device'), 'c', '1', '3'], { stdio: 'ignore' });
      special.push('null-device');
    } catch {
      // not privileged: the FIFO and the socket show the same check
    }
    for (const name of special) {
      for (const action of ['file.write', 'file.append']) {
        const res = await within(call(t, action, { file: name, content: 'ON\n' }));
        expect(res.reason, `${action} ${name}`).toBe('INVALID_ARGUMENTS');
        expect(res.errors[0]).toMatch(
          new RegExp(`^${action}: "file" ${at(name)} is a .*, not a regular file: `),
        );
        expect(lstatSync(at(name)).isFile()).toBe(false);
      }
    }
    expect(lstatSync(at('fifo')).isFIFO()).toBe(true);
    expect(lstatSync(at('socket')).isSocket()).toBe(true);
  });

  it('touches a FIFO without opening it, and refuses to copy one', async () => {
    utimesSync(at('fifo'), 1000, 1000);
    const touched = await within(call(t, 'file.touch', { file: 'fifo' }));
    expect(touched.errors).toEqual([]);
    expect(lstatSync(at('fifo')).isFIFO()).toBe(true);
    expect(lstatSync(at('fifo')).mtimeMs).toBeGreaterThan(1_000_000);

    const copied = await within(call(t, 'file.copy', { source: 'fifo', target: 'fifo-copy' }));
    expect(copied.reason).toBe('INVALID_ARGUMENTS');
    expect(copied.errors[0]).toBe(
      `file.copy: "source" ${at('fifo')} is a FIFO (named pipe), not a regular file: copy a regular file, or a directory with recursive: true`,
    );
    expect(existsSync(at('fifo-copy'))).toBe(false);
  });

  it('writes, appends and copies files whose names are long but valid', async () => {
    const long = `${'a'.repeat(240)}.txt`;
    expect((await call(t, 'file.write', { file: long, content: 'x' })).errors).toEqual([]);
    expect((await call(t, 'file.append', { file: long, content: 'y' })).errors).toEqual([]);
    expect(readFileSync(at(long), 'utf8')).toBe('xy');
    const longCopy = `${'é'.repeat(120)}.txt`; // 244 bytes: cut by bytes, not characters
    expect((await call(t, 'file.copy', { source: long, target: longCopy })).errors).toEqual([]);
    expect(readFileSync(at(longCopy), 'utf8')).toBe('xy');
  });

  it('refuses content that is not base64 with encoding "base64", and accepts its variants', async () => {
    for (const content of ['hello world!', 'QUJD=RA==', 'QUJDR', 'QUJ+D_A=', 'QQ===']) {
      const res = await call(t, 'file.write', { file: 'b64.bin', content, encoding: 'base64' });
      expect(res.reason, content).toBe('INVALID_ARGUMENTS');
      expect(res.errors[0]).toMatch(/^file\.write: "content" is not valid base64 \(.+\): /);
      expect(existsSync(at('b64.bin'))).toBe(false);
    }
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x41]);
    const forms = ['+//+QQ==', '+//+QQ', '-__-QQ', '+//+\nQQ==\n'];
    for (const content of forms) {
      const res = await call(t, 'file.write', { file: 'b64.bin', content, encoding: 'base64' });
      expect(res.errors, content).toEqual([]);
      expect(readFileSync(at('b64.bin'))).toEqual(bytes);
    }
  });

  it('lists as many matches as max_list_entries, whatever does not match after them', async () => {
    mkdirSync(at('lim'));
    writeFileSync(at('lim', 'a.txt'), '');
    writeFileSync(at('lim', 'b.txt'), '');
    // Several non-matching names, so that some follow the matches in the directory's order.
    for (let i = 0; i < 15; i++) writeFileSync(at('lim', `other-${i}.log`), '');
    const res = await call(t, 'file.list', { path: 'lim', glob: '*.txt' });
    expect(res.errors).toEqual([]);
    expect((res.output as Array<{ name: string }>).map((e) => e.name)).toEqual(['a.txt', 'b.txt']);
    writeFileSync(at('lim', 'c.txt'), '');
    const over = await call(t, 'file.list', { path: 'lim', glob: '*.txt' });
    expect(over.errors[0]).toMatch(/holds more than 2 matching entries/);
  });
});
