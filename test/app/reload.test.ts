// The configuration and scripts reload without a restart (POST /reload, SIGHUP,
// `pipit reload`); a bad new configuration is refused and the running one kept.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeApp, registerAndToken, tempDir } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';
import { runCli, startPipitProcess } from '../helpers/process.ts';

const BASE =
  'device_id: test-host\nworkdir: ./data\nscripts_dir: ./scripts\nbackend.http:\n  port: 0\n  bind_address: 127.0.0.1\n';
const V1 = `${BASE}procedure.greet:\n  - return: hello\ncron.Old:\n  cron_expression: '0 3 * * *'\n  actions: [{action: utils.echo}]\n`;

let tmp: ReturnType<typeof tempDir>;
let t: TestApp;
let auth: { authorization: string };

const write = (yaml: string) => writeFileSync(join(tmp.dir, 'config.yaml'), yaml);
const script = (name: string, source: string) =>
  writeFileSync(join(tmp.dir, 'scripts', name), source);
const reload = () => t.app.inject({ method: 'POST', url: '/reload', headers: auth });
const run = async (action: string) =>
  (await t.service.execute({ type: 'request', action }, { transport: 'cli' })).message.response;

beforeEach(async () => {
  tmp = tempDir();
  mkdirSync(join(tmp.dir, 'scripts'));
  script('a.mjs', "import { procedure } from 'pipit';\nprocedure('version', () => 1);\n");
  // makeApp writes BASE's other lines itself; write() then rewrites the file whole.
  t = await makeApp(`scripts_dir: ./scripts\n${V1.slice(BASE.length)}`, { dir: tmp.dir });
  auth = { authorization: `Bearer ${await registerAndToken(t.app)}` };
});
afterEach(async () => {
  await t.close();
  tmp.cleanup();
});

describe('POST /reload', () => {
  it('takes new procedures, hooks, crons and scripts at once', async () => {
    expect((await run('procedure.version')).output).toBe(1);
    write(
      `${BASE}procedure.greet:\n  - return: bonjour\nprocedure.added:\n  - action: procedure.greet\ncron.New:\n  cron_expression: '0 4 * * *'\n  actions: [{action: utils.echo}]\n`,
    );
    script('a.mjs', "import { procedure } from 'pipit';\nprocedure('version', () => 2);\n");
    const res = await reload();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reloaded: true, warnings: [], restart_needed: [] });
    expect((await run('procedure.greet')).output).toBe('bonjour');
    expect((await run('procedure.added')).output).toBe('bonjour');
    expect((await run('procedure.version')).output).toBe(2);
    expect(t.service.scheduler.list().map((c) => c.name)).toEqual(['New']);
  });

  it.each([
    ['bad YAML', `${BASE}procedure.greet: [unclosed\n`, /refused and the running one is kept/],
    [
      'a misspelt action',
      `${BASE}procedure.greet:\n  - action: utils.ecoh\n`,
      /procedure\.greet step 1: plugin "utils" has no action "ecoh". Did you mean "echo"\?/,
    ],
    [
      'a bad cron',
      `${BASE}cron.Bad:\n  cron_expression: 'every day'\n  actions: [{action: utils.echo}]\n`,
      /invalid cron_expression/,
    ],
    [
      'a misspelt key',
      `${BASE.replace('port: 0', 'prot: 0')}`,
      /backend\.http: unknown key "prot"/,
    ],
  ])('refuses %s with 400, keeping the running configuration', async (_what, yaml, message) => {
    write(yaml);
    const res = await reload();
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors.join('\n')).toMatch(message);
    expect((await run('procedure.greet')).output).toBe('hello');
    expect(t.service.scheduler.list().map((c) => c.name)).toEqual(['Old']);
  });

  it('refuses a script that throws, keeping the old one', async () => {
    script('a.mjs', "throw new Error('half-written');\n");
    const res = await reload();
    expect(res.statusCode).toBe(400);
    expect(res.json().response.errors[0]).toMatch(/a\.mjs failed to load: half-written/);
    expect((await run('procedure.version')).output).toBe(1);
  });

  it('says which changed settings need a restart', async () => {
    write(V1.replace('port: 0', 'port: 8765').replace('device_id: test-host', 'device_id: other'));
    const res = await reload();
    expect(res.statusCode).toBe(200);
    expect(res.json().restart_needed).toEqual(['device_id', 'backend.http']);
  });

  it('needs a logged-in user', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/reload' })).statusCode).toBe(401);
  });
});

describe('reloading a running process', () => {
  it('on SIGHUP and with `pipit reload`', async () => {
    const dir = tempDir();
    const configPath = join(dir.dir, 'config.yaml');
    writeFileSync(configPath, V1);
    const proc = await startPipitProcess(configPath);
    try {
      writeFileSync(configPath, V1.replace('return: hello', 'return: after-hup'));
      proc.child.kill('SIGHUP');
      await expect
        .poll(() => proc.logs.join('\n'), { timeout: 10_000 })
        .toMatch(/configuration reloaded/);
      const hup = await runCli(['--config', configPath, 'run', 'procedure.greet']);
      expect(JSON.parse(hup.stdout).response.output).toBe('after-hup');
      writeFileSync(configPath, V1.replace('return: hello', 'return: after-cli'));
      const cli = await runCli(['--config', configPath, 'reload']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ reloaded: true });
      const after = await runCli(['--config', configPath, 'run', 'procedure.greet']);
      expect(JSON.parse(after.stdout).response.output).toBe('after-cli');
    } finally {
      await proc.stop();
      dir.cleanup();
    }
  });
});

describe('start-up checks', () => {
  it('a misspelt action in a procedure stops the start with a "did you mean"', async () => {
    const dir = tempDir();
    const configPath = join(dir.dir, 'config.yaml');
    writeFileSync(configPath, `${BASE}procedure.x:\n  - if \${True}:\n    - action: variable.gt\n`);
    const res = await runCli(['start', '--config', configPath]);
    dir.cleanup();
    expect(res.code).toBe(78);
    expect(res.stderr).toMatch(
      /procedure\.x.*plugin "variable" has no action "gt". Did you mean "get"/,
    );
  });
});
