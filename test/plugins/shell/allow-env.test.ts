import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from './helpers.ts';

// Three ways an allowed program runs other code through a variable no deny-list names: git's
// GIT_CONFIG_* (core.fsmonitor is a command), perl's PERLLIB and python's PYTHONUSERBASE (a .pth).
describe('shell.allow_env', () => {
  const tmp = tempDir('pipit-allow-env-');
  const repo = join(tmp.dir, 'repo');
  const perlScript = join(tmp.dir, 'hello.pl');
  const pythonScript = join(tmp.dir, 'hello.py');
  const evilLib = join(tmp.dir, 'evil-lib');
  const userBase = join(tmp.dir, 'user-base');
  const markers = { git: join(tmp.dir, 'git-ran'), perl: join(tmp.dir, 'perl-ran') };
  const pythonMarker = join(tmp.dir, 'python-ran');
  const allow = `['git status', 'perl ${perlScript}', 'python3 ${pythonScript}']`;
  let strict: TestApp;
  let listed: TestApp;

  const attacks = (): Array<{ name: string; marker: string; args: Record<string, unknown> }> => [
    {
      name: 'GIT_CONFIG_COUNT',
      marker: markers.git,
      args: {
        cmd: 'git status',
        cwd: repo,
        env: {
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: 'core.fsmonitor',
          GIT_CONFIG_VALUE_0: `touch ${markers.git}`,
        },
      },
    },
    {
      name: 'PERLLIB',
      marker: markers.perl,
      args: { cmd: ['perl', perlScript], env: { PERLLIB: evilLib } },
    },
    {
      name: 'PYTHONUSERBASE',
      marker: pythonMarker,
      args: { cmd: ['python3', pythonScript], env: { PYTHONUSERBASE: userBase } },
    },
  ];

  beforeAll(async () => {
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, 'file'), 'x\n');
    // An index: git status asks the fsmonitor only when there is one.
    execFileSync('git', ['-C', repo, 'add', 'file']);
    writeFileSync(perlScript, 'use strict;\nprint "hello\\n";\n');
    mkdirSync(evilLib);
    writeFileSync(join(evilLib, 'strict.pm'), `system('touch', '${markers.perl}');\n1;\n`);
    writeFileSync(pythonScript, 'print("hello")\n');
    const site = execFileSync('python3', ['-c', 'import site; print(site.getusersitepackages())'], {
      env: { ...process.env, PYTHONUSERBASE: userBase },
      encoding: 'utf8',
    }).trim();
    mkdirSync(site, { recursive: true });
    writeFileSync(join(site, 'evil.pth'), `import os; os.system("touch ${pythonMarker}")\n`);
    strict = await makeApp(`shell:\n  allow: ${allow}\n  allow_env: [LANG]\n`);
    listed = await makeApp(
      `shell:\n  allow: ${allow}\n  allow_env: ['GIT_CONFIG_*', PERLLIB, PYTHONUSERBASE, 'LD_*']\n`,
    );
  });
  afterAll(async () => {
    await strict?.close();
    await listed?.close();
    tmp.cleanup();
  });
  afterEach(() => {
    for (const marker of [...Object.values(markers), pythonMarker]) rmSync(marker, { force: true });
  });

  it('refuses variables shell.allow_env does not list, naming the variable and the fix', async () => {
    for (const { name, marker, args } of attacks()) {
      const res = await call(strict, 'shell.exec', args);
      expect(res.result.error?.details, name).toMatchObject({ reason: 'INVALID_ARGUMENTS' });
      expect(res.errors[0], name).toMatch(
        new RegExp(
          `may only set the variables in shell\\.allow_env \\("LANG"\\), and "${name}" is not one: .*add it to shell\\.allow_env`,
        ),
      );
      expect(existsSync(marker), name).toBe(false);
    }
    // The allowed commands run, and a listed variable passes.
    for (const { name, args } of attacks()) {
      const res = await call(strict, 'shell.exec', { ...args, env: { LANG: 'C' } });
      expect(res.errors, name).toEqual([]);
    }
  });

  // The same calls run the planted code once the variables are listed: the refusal above is what
  // stops them, not something else in the set-up.
  it('lets the listed variables through, which is what makes listing them a decision', async () => {
    for (const { name, marker, args } of attacks()) {
      const res = await call(listed, 'shell.exec', args);
      expect(res.errors, name).toEqual([]);
      expect(existsSync(marker), name).toBe(true);
    }
  });

  it('refuses PATH, LD_* and the like even when shell.allow_env covers them', async () => {
    const res = await call(listed, 'shell.exec', {
      cmd: ['perl', perlScript],
      env: { LD_PRELOAD: join(evilLib, 'x.so') },
    });
    expect(res.errors[0]).toMatch(
      /cannot set "LD_PRELOAD": the dynamic loader .*shell\.allow_env cannot allow it/,
    );
    const dir = join(tmp.dir, 'refused-config');
    mkdirSync(dir);
    await expect(
      makeApp(`shell:\n  allow: [uptime]\n  allow_env: [PATH]\n`, { dir }),
    ).rejects.toThrow(
      /allow_env.*cannot be allowed: it chooses which program a command name runs/s,
    );
    await expect(
      makeApp(`shell:\n  allow: [uptime]\n  allow_env: ['A=B']\n`, { dir }),
    ).rejects.toThrow(/allow_env.*is not a variable name/s);
  });
});
