import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call, processGone, until } from './helpers.ts';

describe('shell.exec', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await makeApp('shell:\n  kill_grace_seconds: 0.2\n  max_output_bytes: 1048576\n');
  });
  afterAll(() => t.close());

  it('runs a string through /bin/sh -c and returns stdout as text, quoting as the shell does', async () => {
    const res = await call(t, 'shell.exec', {
      cmd: `printf '%s|' "a b" 'c$d' "e\\"f" $FOO`,
      env: { FOO: 'from env' },
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toBe('a b|c$d|e"f|from|env|');
  });

  it('runs an argument list without a shell: nothing in an argument is interpreted', async () => {
    const marker = join(t.dir, 'injected');
    const res = await call(t, 'shell.exec', {
      cmd: ['printf', '%s\\n', `$(touch ${marker})`, `; touch ${marker}`, '`id`', '*'],
    });
    expect(res.errors).toEqual([]);
    expect(res.output).toBe(`$(touch ${marker})\n; touch ${marker}\n\`id\`\n*\n`);
    expect(existsSync(marker)).toBe(false);
  });

  it('runs in cwd, and names a missing cwd or program', async () => {
    expect((await call(t, 'shell.exec', { cmd: 'pwd', cwd: t.dir })).output).toBe(`${t.dir}\n`);
    const noDir = await call(t, 'shell.exec', { cmd: 'pwd', cwd: join(t.dir, 'nope') });
    expect(noDir.errors[0]).toMatch(/"cwd" .*nope" does not exist/);
    const noProgram = await call(t, 'shell.exec', { cmd: ['pipit-no-such-program', 'x'] });
    expect(noProgram.errors[0]).toMatch(/program "pipit-no-such-program" not found/);
  });

  it('makes a non-zero exit an error with the status and stderr; ignore_errors returns the output', async () => {
    const cmd = 'echo out; echo "it broke" >&2; exit 3';
    const res = await call(t, 'shell.exec', { cmd });
    expect(res.result.error?.code).toBe('ACTION_FAILED');
    expect(res.errors.join('\n')).toMatch(/exited with status 3: it broke/);
    expect(res.result.error?.details).toMatchObject({ exit_code: 3, stderr: 'it broke' });
    const ignored = await call(t, 'shell.exec', { cmd, ignore_errors: true });
    expect(ignored.errors).toEqual([]);
    expect(ignored.output).toBe('out\n');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const pidFile = join(t.dir, 'grandchild.pid');
    const started = Date.now();
    const res = await call(t, 'shell.exec', {
      cmd: `sleep 100 & echo $! > ${pidFile}; wait`,
      timeout: 0.5,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.errors[0]).toMatch(/ran past its timeout of 0\.5 s and was killed/);
    expect(res.result.error?.details).toMatchObject({ reason: 'TIMEOUT' });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await until(() => processGone(grandchild))).toBe(true);
  });

  it('SIGKILLs, after the grace period, processes that ignore SIGTERM', async () => {
    const pidFile = join(t.dir, 'stubborn.pid');
    const res = await call(t, 'shell.exec', {
      cmd: `sh -c 'trap "" TERM; echo $$ > ${pidFile}; while :; do sleep 0.05; done' > /dev/null & wait`,
      timeout: 0.3,
    });
    expect(res.errors[0]).toMatch(/timeout/);
    await until(() => existsSync(pidFile));
    const stubborn = Number(readFileSync(pidFile, 'utf8'));
    expect(await until(() => processGone(stubborn))).toBe(true);
  });

  // A child left in the group used to hold stdout open until the timeout (TIMEOUT for a command
  // that had finished), or, with its output elsewhere, to outlive the command and the service.
  it('ends with its own process, and ends what it left in its process group', async () => {
    const pidFile = join(t.dir, 'left.pid');
    const started = Date.now();
    const res = await call(t, 'shell.exec', {
      cmd: `sleep 30 & echo $! > ${pidFile}; echo hi`,
      timeout: 10,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(res.errors).toEqual([]);
    expect(res.output).toBe('hi\n');
    const left = Number(readFileSync(pidFile, 'utf8'));
    expect(left).toBeGreaterThan(0);
    expect(await until(() => processGone(left))).toBe(true);
    const quiet = await call(t, 'shell.exec', {
      cmd: `sleep 30 > /dev/null 2>&1 & echo $! > ${pidFile}`,
    });
    expect(quiet.errors).toEqual([]);
    expect(await until(() => processGone(Number(readFileSync(pidFile, 'utf8'))))).toBe(true);
  });

  it('cuts output past max_output_bytes and says so', async () => {
    const res = await call(t, 'shell.exec', { cmd: "head -c 5000000 /dev/zero | tr '\\0' a" });
    expect(res.errors).toEqual([]);
    const output = res.output as string;
    expect(output.startsWith('a'.repeat(1048576))).toBe(true);
    expect(output.slice(1048576)).toMatch(
      /^\n\[output truncated: the command wrote 5000000 bytes; the first 1048576 are shown/,
    );
  });

  it('kills the command when the caller goes away', async () => {
    const pidFile = join(t.dir, 'aborted.pid');
    const controller = new AbortController();
    const pending = call(
      t,
      'shell.exec',
      { cmd: `echo $$ > ${pidFile}; exec sleep 100` },
      controller.signal,
    );
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'));
    controller.abort();
    const res = await pending;
    expect(res.errors[0]).toMatch(/was killed \(the caller went away\)/);
    expect(await until(() => processGone(Number(readFileSync(pidFile, 'utf8'))))).toBe(true);
  });

  // PGPASSWORD, AWS_SECRET_ACCESS_KEY... are no key names the history masks by themselves.
  it('keeps env out of the run history, so such a run is not replayed', async () => {
    const env = { PGPASSWORD: 'pg-hunter2', GITHUB_TOKEN: 'gh-hunter2' };
    const res = await call(t, 'shell.exec', { cmd: 'printf %s "$PGPASSWORD"', env });
    expect(res.output).toBe('pg-hunter2');
    const listed = await call(t, 'runs.list', { action: 'shell.exec' });
    const runs = (listed.output as { runs: Array<{ id: string; args: Record<string, unknown> }> })
      .runs;
    const run = runs.find((r) => r.args.cmd === 'printf %s "$PGPASSWORD"')!;
    expect(run.args.env).toBe('[redacted]');
    expect(JSON.stringify(runs)).not.toContain('hunter2');
    expect((await call(t, 'runs.replay', { id: run.id })).errors[0]).toMatch(
      /secret arguments \(env\)/,
    );
  });

  it('refuses env names that cannot be variables, naming them', async () => {
    const res = await call(t, 'shell.exec', { cmd: 'true', env: { 'A=B': 'x' } });
    expect(res.result.error?.details).toMatchObject({ reason: 'INVALID_ARGUMENTS' });
    expect(res.errors[0]).toMatch(/"env" has the variable name "A=B".*pass the name and the value/);
  });

  it('refuses arguments it does not know and a cmd of the wrong type, naming them', async () => {
    const res = await call(t, 'shell.exec', { cmd: 42 });
    expect(res.result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toMatch(/argument "cmd"/);
    expect((await call(t, 'shell.exec', { cmd: 'true', ws: true })).errors[0]).toMatch(
      /unknown argument "ws"/,
    );
  });
});

describe('shell.exec at a stop', () => {
  // A child that ignores SIGTERM outlives a finished command for the grace period (long here),
  // holding its stdout: the call must not wait for it, and a graceful stop must not leave it
  // running, nor wait all that time for it.
  it('kills what commands left in their process groups', async () => {
    const t = await makeApp('shell:\n  kill_grace_seconds: 60\n');
    let stubborn = 0;
    try {
      const pidFile = join(t.dir, 'stubborn.pid');
      const started = Date.now();
      const res = await call(t, 'shell.exec', {
        cmd: `sh -c 'trap "" TERM; echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; while :; do sleep 0.05; done' & while [ ! -e ${pidFile} ]; do sleep 0.01; done; echo started`,
        timeout: 20,
      });
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.errors).toEqual([]);
      expect(res.output).toBe('started\n');
      expect(await until(() => existsSync(pidFile))).toBe(true);
      stubborn = Number(readFileSync(pidFile, 'utf8'));
      expect(processGone(stubborn)).toBe(false);
      const stopping = Date.now();
      await t.close();
      expect(Date.now() - stopping).toBeLessThan(10_000);
      expect(await until(() => processGone(stubborn))).toBe(true);
    } finally {
      if (stubborn && !processGone(stubborn)) process.kill(stubborn, 'SIGKILL');
      await t.close().catch(() => undefined);
    }
  });
});

describe('shell disabled by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeApp('');
  });
  afterAll(() => t.close());

  it('answers with how to enable it and what that means', async () => {
    const res = await call(t, 'shell.exec', { cmd: 'echo hi' });
    expect(res.result.error?.code).toBe('NOT_FOUND');
    expect(res.errors[0]).toMatch(/plugin "shell" is not enabled/);
    expect(res.errors[0]).toMatch(/runs any command on this host as the service's user/);
    expect(res.errors[0]).toMatch(/Add "shell: \{\}" to enable it/);
    expect(t.service.registry.catalog().map((p) => p.name)).not.toContain('shell');
  });
});
