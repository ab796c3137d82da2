// `pipit run` and the CLI's user and token commands go through the running service (its control
// socket), so that the service sees what they do; `--local` keeps the old way.
import { statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../http/ws-client.ts';
import { runCli, startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const PASSWORD = 'correct horse battery';
// In-memory state: through the service the count goes up; each --local run starts from zero.
const SCRIPT = `import { procedure } from 'pipit';\nlet n = 0;\nprocedure('count', () => ++n);\n`;

function setUp(http: boolean) {
  const tmp = tempDir();
  const configPath = join(tmp.dir, 'config.yaml');
  mkdirSync(join(tmp.dir, 'scripts'));
  writeFileSync(join(tmp.dir, 'scripts', 'count.mjs'), SCRIPT);
  writeFileSync(
    configPath,
    `device_id: ctl\nworkdir: ./data\nscripts_dir: ./scripts\n${http ? 'backend.http:\n  port: 0\n  bind_address: 127.0.0.1\n' : ''}`,
  );
  const cli = (args: string[], input = '') => runCli(['--config', configPath, ...args], { input });
  const output = async (args: string[]) => {
    const res = await cli(args);
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout) as { response: { output: unknown; errors: string[] } };
  };
  return { tmp, configPath, cli, output };
}

describe('the CLI and a running service', () => {
  const env = setUp(true);
  let proc: PipitProcess;
  beforeAll(async () => {
    proc = await startPipitProcess(env.configPath);
  });
  afterAll(async () => {
    await closeAll();
    await proc.stop();
    env.tmp.cleanup();
  });

  it('runs actions in the service: its state, its events; --local runs on its own', async () => {
    expect((await env.output(['run', 'procedure.count'])).response.output).toBe(1);
    expect((await env.output(['run', 'procedure.count'])).response.output).toBe(2);
    expect((await env.output(['run', '--local', 'procedure.count'])).response.output).toBe(1);
    expect(statSync(join(env.tmp.dir, 'data', 'control')).mode & 0o777).toBe(0o700);
    expect(statSync(join(env.tmp.dir, 'data', 'control', 'pipit.sock')).mode & 0o777).toBe(0o600);
  });

  it('user and token commands act on the service at once; event.fire reaches its subscribers', async () => {
    const add = await env.cli(['user', 'add', 'ada', '--password-stdin'], `${PASSWORD}\n`);
    expect(add.code, add.stderr).toBe(0);
    const created = await env.cli(['token', 'create', 'ada', '--name', 'ctl']);
    expect(created.code, created.stderr).toBe(0);
    const { token, id } = JSON.parse(created.stdout) as { token: string; id: string };
    const events = await connect(`${proc.url.replace('http', 'ws')}/ws/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    events.send({ type: 'subscribe', events: ['CustomEvent'] });
    await events.next((f) => f.type === 'subscribed');
    await env.output(['run', 'event.fire', 'subtype=from-cli']);
    expect((await events.next((f) => f.type === 'event')).args.subtype).toBe('from-cli');
    const revoked = await env.cli(['token', 'revoke', 'ada', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    // The service learnt of the revocation from its own call: the socket is closed at once.
    expect((await events.closed).code).toBe(1008);
    const after = await fetch(`${proc.url}/tokens`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(401);
  });

  it('a command that fails in the service prints its error and exits non-zero', async () => {
    const res = await env.cli(['token', 'list', 'nobody']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/no user named "nobody"/);
  });
});

describe('pipit start without backend.http', () => {
  it('keeps running and serves the CLI through its control socket', async () => {
    const env = setUp(false);
    const proc = await startPipitProcess(env.configPath, {}, /started without the HTTP backend()/);
    try {
      expect((await env.output(['run', 'procedure.count'])).response.output).toBe(1);
      expect((await env.output(['run', 'procedure.count'])).response.output).toBe(2);
      expect(proc.child.exitCode).toBeNull();
    } finally {
      expect(await proc.stop()).toBe(0);
      env.tmp.cleanup();
    }
  });
});
