// Running Pipit day to day — a taken port, a workdir already in use, the banner, the
// password prompt without a terminal.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/store/workdir-lock.ts';
import { runCli, startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

let dir: string;
let cleanup: () => void;
let configPath: string;
const procs: PipitProcess[] = [];

const writeConfig = (body: string) =>
  writeFileSync(configPath, `device_id: ops-host\nworkdir: ./data\n${body}`);
const HTTP = 'backend.http:\n  port: 0\n  bind_address: 127.0.0.1\n';

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  configPath = join(dir, 'config.yaml');
});
afterEach(async () => {
  for (const p of procs.splice(0)) await p.stop();
  cleanup();
});

describe('pipit start', () => {
  it('a port in use: one line naming the port and the key to change, exit 78', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    writeConfig(`backend.http:\n  port: ${port}\n  bind_address: 127.0.0.1\n`);
    const { code, stderr } = await runCli(['start', '--config', configPath]);
    blocker.close();
    expect(code).toBe(78);
    expect(stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use`));
    expect(stderr).toMatch(/set backend\.http\.port to a free port/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a bind address that is not on this machine: one line naming the key, exit 78', async () => {
    // 192.0.2.1 is TEST-NET-1: never an address of this machine.
    writeConfig('backend.http:\n  port: 0\n  bind_address: 192.0.2.1\n');
    const { code, stderr } = await runCli(['start', '--config', configPath]);
    expect(code).toBe(78);
    expect(stderr).toMatch(
      /cannot listen on 192\.0\.2\.1: it is not an address of this machine; fix backend\.http\.bind_address/,
    );
  });

  it('refuses a second instance on the same workdir, and takes over a stale lock', async () => {
    writeConfig(HTTP);
    const first = await startPipitProcess(configPath);
    procs.push(first);
    const second = await runCli(['start', '--config', configPath]);
    expect(second.code).toBe(78);
    expect(second.stderr).toMatch(
      new RegExp(`another Pipit \\(PID ${first.child.pid}\\) is already running with the workdir`),
    );
    expect(await first.stop()).toBe(0);
    // A lock left by a process that is gone (kill -9): the next start takes it over.
    const gone = spawn(process.execPath, ['-e', '0']);
    await once(gone, 'exit');
    writeFileSync(join(dir, 'data', LOCK_FILE), `${gone.pid}\n`);
    const third = await startPipitProcess(configPath);
    procs.push(third);
    expect((await fetch(`${third.url}/auth/status`)).status).toBe(200);
  });

  it('logs a banner: where to register, the config, scripts, procedures, hooks and crons', async () => {
    writeConfig(
      `${HTTP}procedure.morning:\n  - action: utils.echo\nevent.hook.OnDoor:\n  if: {type: CustomEvent, subtype: door}\n  then: [{action: utils.echo}]\ncron.Nightly:\n  cron_expression: '0 23 * * *'\n  actions: [{action: utils.echo}]\n`,
    );
    const p = await startPipitProcess(configPath);
    procs.push(p);
    await expect.poll(() => p.logs.join('\n')).toMatch(/crons: Nightly \(next \d{4}-/);
    const logs = p.logs.join('\n');
    const port = new URL(p.url).port;
    expect(logs).toContain(`open http://127.0.0.1:${port}/ and register the first user there`);
    expect(logs).toContain(`config: ${configPath}`);
    expect(logs).toContain('procedures: morning');
    expect(logs).toContain('hooks: OnDoor');
    expect(logs).toMatch(/scripts \(.*\): none/);
  });
});

describe('pipit user add', () => {
  it('without a terminal or --password-stdin: says how to pass the password', async () => {
    writeConfig('');
    const { code, stderr } = await runCli(['--config', configPath, 'user', 'add', 'ada']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/no terminal to type the password on/);
    expect(stderr).toMatch(/pipit user add ada --password-stdin/);
  });
});
