import { once } from 'node:events';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startPipitProcess, runCli } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';
import { SERVICE_V8_FLAGS } from '../../src/app/process-policy.ts';

const PASSWORD = 'correct horse battery';

describe('pipit start (a real process on a free port)', () => {
  let dir: string;
  let cleanup: () => void;
  let configPath: string;
  let proc: PipitProcess | undefined;

  beforeEach(() => {
    ({ dir, cleanup } = tempDir());
    configPath = join(dir, 'config.yaml');
    writeFileSync(
      configPath,
      'device_id: proc-host\nworkdir: ./data\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n',
    );
  });
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    cleanup();
  });

  const post = (url: string, body: unknown, token?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  it('registers, issues a token, executes, revokes from the CLI, and keeps users and variables across a restart', async () => {
    proc = await startPipitProcess(configPath);
    expect(
      (await post(`${proc.url}/register`, { username: 'ada', password: PASSWORD })).status,
    ).toBe(201);
    const auth = (await (
      await post(`${proc.url}/auth`, { username: 'ada', password: PASSWORD, name: 'script' })
    ).json()) as {
      token: string;
      id: string;
    };
    const set = await post(
      `${proc.url}/execute`,
      { type: 'request', action: 'variable.set', args: { mood: 'sunny' } },
      auth.token,
    );
    expect(set.status).toBe(200);
    expect(statSync(join(dir, 'data', 'jwt.key')).mode & 0o777).toBe(0o600);

    // Revoked by another process (the CLI) while the server runs: 401 at once.
    const revoke = await runCli(['--config', configPath, 'token', 'revoke', 'ada', auth.id]);
    expect(revoke.code).toBe(0);
    const afterRevoke = await post(
      `${proc.url}/execute`,
      { type: 'request', action: 'utils.echo' },
      auth.token,
    );
    expect(afterRevoke.status).toBe(401);

    expect(await proc.stop()).toBe(0);
    expect(proc.logs.join('\n')).toContain('Pipit stopped');
    expect(proc.logs.join('\n')).not.toContain(auth.token);
    expect(proc.logs.join('\n')).not.toContain(PASSWORD);

    proc = await startPipitProcess(configPath);
    const again = (await (
      await post(`${proc.url}/auth`, { username: 'ada', password: PASSWORD })
    ).json()) as { token: string };
    const get = await post(
      `${proc.url}/execute`,
      { type: 'request', action: 'variable.get', args: { name: 'mood' } },
      again.token,
    );
    expect(((await get.json()) as { response: { output: unknown } }).response.output).toEqual({
      mood: 'sunny',
    });
    const reg = await post(`${proc.url}/register`, { username: 'eve', password: PASSWORD });
    expect(reg.status).toBe(403);
  });

  it('runs with the V8 settings of a long-running service, and says so at debug level', async () => {
    const started = (proc = await startPipitProcess(configPath, { PIPIT_LOG_LEVEL: 'debug' }));
    // Said once the service is up, so possibly after the line that says it listens.
    const find = () =>
      started.logs
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string; v8?: string[] })
        .find((entry) => entry.msg === 'V8 settings for a long-running service');
    let said = find();
    while (!said) {
      await once(started.child.stdout, 'data');
      said = find();
    }
    expect(said.v8).toEqual(['--no-allocation-site-pretenuring']);
    expect(SERVICE_V8_FLAGS).toEqual(said.v8);
  });

  it('finishes an in-flight request on SIGTERM before exiting', async () => {
    // Access lines are written at debug.
    proc = await startPipitProcess(configPath, { PIPIT_LOG_LEVEL: 'debug' });
    await post(`${proc.url}/register`, { username: 'ada', password: PASSWORD });
    const { token } = (await (
      await post(`${proc.url}/auth`, { username: 'ada', password: PASSWORD })
    ).json()) as { token: string };
    const slow = post(
      `${proc.url}/execute`,
      { type: 'request', action: 'utils.sleep', args: { seconds: 0.5 } },
      token,
    );
    // Wait until the server has the request (its access log line), then ask it to stop.
    await new Promise<void>((resolve) => {
      const seen = () =>
        proc!.logs.some((l) => l.includes('"url":"/execute"') && l.includes('incoming request'));
      if (seen()) return resolve();
      const onData = () => {
        if (!seen()) return;
        proc!.child.stdout.off('data', onData);
        resolve();
      };
      proc!.child.stdout.on('data', onData);
    });
    const exited = proc.stop();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: { output: unknown } }).response.output).toEqual({
      success: true,
    });
    expect(await exited).toBe(0);
  });

  it('refuses a bad configuration at start with the file, key and value, and a non-zero exit', async () => {
    writeFileSync(configPath, 'backend.http:\n  port: lots\n');
    const res = await runCli(['start', '--config', configPath]);
    expect(res.code).toBe(78);
    expect(res.stderr).toContain(configPath);
    expect(res.stderr).toMatch(/backend\.http\.port: .*; got "lots"/);
  });

  it('writes a commented default configuration where none exists, and never overwrites one', async () => {
    const { resolveConfig } = await import('../../src/app/runtime.ts');
    const target = join(dir, 'fresh', 'config.yaml');
    const first = resolveConfig({ explicit: target, writeDefault: true });
    expect(first.created).toBe(target);
    expect(first.config.http?.port).toBe(8008);
    expect(readFileSync(target, 'utf8')).toMatch(/^# Pipit configuration/);
    writeFileSync(target, 'device_id: mine\n');
    const second = resolveConfig({ explicit: target, writeDefault: true });
    expect(second.created).toBeNull();
    expect(second.config.deviceId).toBe('mine');
  });
});
