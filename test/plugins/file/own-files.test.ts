import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PipitError } from '../../../src/core/errors.ts';
import { CLI } from '../../helpers/process.ts';
import { makeApp, registerAndToken, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { pipitDir } from './file-app.ts';

// makeApp's configuration: <dir>/config.yaml, workdir <dir>/data, scripts_dir <dir>/scripts.
const fileSection = (roots: string[]) =>
  `file:\n  roots: [${roots.map((r) => JSON.stringify(r)).join(', ')}]\n`;

describe('file.roots that reach Pipit itself', () => {
  let tmp: ReturnType<typeof tempDir>;
  afterEach(() => tmp.cleanup());

  it.each([
    ['holds', 'scripts_dir', (dir: string) => join(dir, '..')],
    ['is', 'the workdir', (dir: string) => join(dir, 'data')],
    ['is inside', 'scripts_dir', (dir: string) => join(dir, 'scripts', 'mine')],
  ])(
    'refuses at start a root that %s %s, naming the root, the overlap and the fix',
    async (how, what, rootOf) => {
      tmp = tempDir();
      const dir = pipitDir(tmp.dir);
      const root = rootOf(dir);
      mkdirSync(root, { recursive: true });
      const started = makeApp(fileSection([root]), { dir });
      await expect(started).rejects.toBeInstanceOf(PipitError);
      const err = (await started.catch((e: unknown) => e)) as PipitError;
      // CONFIG_INVALID: `pipit start` exits with 78, as for any other configuration error.
      expect(err.code).toBe('CONFIG_INVALID');
      expect(err.message).toContain(`file.roots: ${root} ${how} ${what}`);
      expect(err.message).toMatch(/use a directory apart from .* as a root, or move .* elsewhere/);
    },
  );

  it('stops `pipit start` with exit status 78 for such a root', async () => {
    tmp = tempDir();
    const configPath = join(tmp.dir, 'config.yaml');
    writeFileSync(
      configPath,
      `device_id: test-host\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n${fileSection([tmp.dir])}`,
    );
    // Killed if it starts after all (the signal), so that a failure leaves no service running.
    const child = spawn(process.execPath, [CLI, 'start', '--config', configPath], {
      env: { ...process.env, PIPIT_LOG_LEVEL: 'warn' },
      signal: AbortSignal.timeout(25_000),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', () => undefined);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(78);
    expect(stderr).toContain(`file.roots: ${tmp.dir} holds scripts_dir`);
  }, 30_000);

  it('refuses at reload a scripts_dir or new roots inside a running root, keeping the running configuration', async () => {
    tmp = tempDir();
    const dir = pipitDir(tmp.dir);
    const root = join(tmp.dir, 'root');
    mkdirSync(join(root, 'scripts'), { recursive: true });
    const t = await makeApp(fileSection([root]), { dir });
    try {
      const auth = { authorization: `Bearer ${await registerAndToken(t.app)}` };
      const base = readFileSync(t.configPath, 'utf8');
      const scriptsBefore = t.service.config.scriptsDir;
      // A script the caller wrote in the root, then made scripts_dir: it must never load.
      writeFileSync(join(root, 'scripts', 'evil.mjs'), 'globalThis.pipitOwned = true;\n');
      for (const yaml of [
        `${base}scripts_dir: ${JSON.stringify(join(root, 'scripts'))}\n`,
        base.replace(fileSection([root]), fileSection([root, tmp.dir])),
      ]) {
        writeFileSync(t.configPath, yaml);
        const res = await t.app.inject({ method: 'POST', url: '/reload', headers: auth });
        expect(res.statusCode).toBe(400);
        expect(res.json().response.errors.join('\n')).toMatch(
          /the new configuration was refused and the running one is kept: file.roots: .* (holds|is inside) /,
        );
      }
      expect((globalThis as { pipitOwned?: boolean }).pipitOwned).toBeUndefined();
      expect(t.service.config.scriptsDir).toBe(scriptsBefore);
    } finally {
      await t.close();
    }
  });
});

describe("the file plugin and Pipit's own files, without roots", () => {
  let t: TestApp;
  let tmp: ReturnType<typeof tempDir>;
  let dir: string;
  const at = (...parts: string[]) => join(dir, ...parts);

  beforeAll(async () => {
    tmp = tempDir();
    dir = pipitDir(tmp.dir);
    mkdirSync(at('scripts'));
    writeFileSync(at('scripts', 'ok.mjs'), '// a script\n');
    t = await makeApp('file: {}\n', { dir });
    // A link elsewhere into scripts_dir: refusals compare resolved paths.
    symlinkSync(at('scripts'), join(tmp.dir, 'to-scripts'));
  });
  afterAll(async () => {
    await t.close();
    tmp.cleanup();
  });

  it('refuses to write, move, remove, chmod, copy or link onto a script, the configuration or the workdir', async () => {
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['file.write', { file: at('scripts', 'evil.mjs'), content: 'x' }],
      ['file.write', { file: join(tmp.dir, 'to-scripts', 'evil.mjs'), content: 'x' }],
      ['file.write', { file: at('scripts', 'new', 'evil.mjs'), content: 'x', parents: true }],
      ['file.append', { file: at('config.yaml'), content: 'scripts_dir: /tmp\n' }],
      ['file.write', { file: at('data', 'jwt.key'), content: 'x' }],
      ['file.copy', { source: at('config.yaml'), target: at('scripts', 'evil.mjs') }],
      ['file.move', { source: at('scripts', 'ok.mjs'), target: join(tmp.dir, 'ok.mjs') }],
      ['file.delete', { file: at('config.yaml') }],
      ['file.delete', { file: dir, recursive: true }],
      ['file.rmdir', { directory: at('data'), recursive: true }],
      ['file.chmod', { file: at('config.yaml'), mode: '0666' }],
      ['file.touch', { file: at('scripts', 'evil.mjs') }],
      ['file.mkdir', { directory: at('scripts', 'sub') }],
      ['file.link', { file: at('config.yaml'), target: at('scripts', 'evil.mjs') }],
    ];
    for (const [action, args] of attempts) {
      const res = await call(t, action, args);
      expect(res.reason, `${action} ${JSON.stringify(args)}`).toBe('FORBIDDEN');
      expect(res.errors[0]).toMatch(/Pipit's|scripts_dir|workdir/);
    }
    expect(existsSync(at('scripts', 'evil.mjs'))).toBe(false);
    expect(existsSync(at('scripts', 'new'))).toBe(false);
    expect(existsSync(at('scripts', 'sub'))).toBe(false);
    expect(existsSync(at('scripts', 'ok.mjs'))).toBe(true);
    expect(readFileSync(at('config.yaml'), 'utf8')).not.toContain('scripts_dir: /tmp');
  });

  it('refuses to read jwt.key and the database, or copy and link them out', async () => {
    const out = join(tmp.dir, 'out');
    for (const [action, args] of [
      ['file.read', { file: at('data', 'jwt.key') }],
      ['file.read', { file: at('data', 'pipit.db'), encoding: 'base64' }],
      ['file.copy', { source: at('data', 'jwt.key'), target: out }],
      ['file.link', { file: at('data', 'jwt.key'), target: out, symbolic: false }],
    ] as const) {
      const res = await call(t, action, args);
      expect(res.reason, action).toBe('FORBIDDEN');
      expect(res.errors[0]).toContain(`is in Pipit's workdir`);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('still reads the configuration and scripts, and writes beside them', async () => {
    expect((await call(t, 'file.read', { file: at('scripts', 'ok.mjs') })).output).toBe(
      '// a script\n',
    );
    const res = await call(t, 'file.write', { file: at('notes.txt'), content: 'n' });
    expect(res.errors).toEqual([]);
    expect((await call(t, 'file.list', { path: at('data') })).errors).toEqual([]);
  });
});
