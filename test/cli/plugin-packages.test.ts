// A plugin package in a real `pipit start`: enabled by name, called over HTTP, a WebSocket and the
// CLI, its routes served; `pipit plugin list` and `pipit status` show it; `pipit plugin new`
// writes a package whose own test passes with `npm test`, offline.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect } from '../http/ws-client.ts';
import { runCli, startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';
import { installHello, writePackage } from '../plugins/packages/fixtures.ts';

const REPO = join(import.meta.dirname, '../..');
const PASSWORD = 'correct horse battery';

describe('a plugin package in a running Pipit', () => {
  const t = tempDir('pipit-plugin-process-');
  const configPath = join(t.dir, 'config.yaml');
  let pipit: PipitProcess;
  let token: string;

  beforeAll(async () => {
    installHello(t.dir);
    writePackage(t.dir, 'pipit-plugin-boom', { index: "throw new Error('boom at import');" });
    writeFileSync(
      configPath,
      [
        'device_id: plugins-test',
        'workdir: ./data',
        'backend.http: {port: 0, bind_address: 127.0.0.1}',
        'plugins: [pipit-plugin-hello, pipit-plugin-boom]',
        'hello: {greeting: Howdy}',
        '',
      ].join('\n'),
    );
    pipit = await startPipitProcess(configPath);
    const reg = await fetch(`${pipit.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: PASSWORD }),
    });
    expect(reg.status).toBe(201);
    const auth = await fetch(`${pipit.url}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: PASSWORD }),
    });
    token = ((await auth.json()) as { token: string }).token;
  }, 60_000);

  afterAll(async () => {
    await closeAll();
    await pipit?.stop();
    t.cleanup();
  });

  const execute = (action: string, args: Record<string, unknown>) =>
    fetch(`${pipit.url}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'request', action, args }),
    });

  it('answers over HTTP, with the caller and the configured greeting', async () => {
    const res = await execute('hello.greet', { name: 'Ada' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: { output: unknown } };
    expect(body.response.output).toEqual({ text: 'Howdy, Ada!', count: 1, by: 'ada' });
  });

  it('answers on /ws/requests, and its event reaches /ws/events', async () => {
    const ws = pipit.url.replace(/^http/, 'ws');
    const events = await connect(`${ws}/ws/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const requests = await connect(`${ws}/ws/requests`, {
      headers: { authorization: `Bearer ${token}` },
    });
    requests.send({ type: 'request', id: 'r1', action: 'hello.greet', args: { name: 'Bo' } });
    const answer = await requests.next((f) => f.id === 'r1');
    expect(answer.response.output).toMatchObject({ text: 'Howdy, Bo!' });
    const event = await events.next((f) => String(f.args?.type).endsWith('hello.GreetedEvent'));
    expect(event.args).toMatchObject({ name: 'Bo' });
  });

  it('answers `pipit run`, and a broken package answers 503 saying why', async () => {
    const run = await runCli(['--config', configPath, 'run', 'hello.count']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).response.output.count).toBeGreaterThanOrEqual(2);
    const res = await execute('boom.go', {});
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('plugin \\"boom\\" failed to start: it threw when imported');
    // The service itself is up: a broken plugin package does not make it unready.
    expect((await fetch(`${pipit.url}/readyz`)).status).toBe(200);
  });

  it('serves its routes: guarded unless public', async () => {
    expect((await fetch(`${pipit.url}/plugins/hello/ping`)).status).toBe(200);
    expect((await fetch(`${pipit.url}/plugins/hello/last`)).status).toBe(401);
    const last = await fetch(`${pipit.url}/plugins/hello/last`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await last.json()).toEqual({ greeting: 'Howdy', user: 'ada' });
  });

  it('shows in the catalog, `pipit plugin list` and `pipit status`', async () => {
    const catalog = await execute('inspect.get_all_plugins', {});
    expect(JSON.stringify(await catalog.json())).toContain('hello.greet');
    const list = await runCli(['--config', configPath, 'plugin', 'list', '--json']);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; state: string; version: string }[];
    expect(rows.find((r) => r.name === 'hello')).toMatchObject({
      version: '1.0.0',
      state: 'started',
    });
    expect(rows.find((r) => r.name === 'boom')).toMatchObject({ state: 'failed' });
    expect(rows.find((r) => r.name === 'utils')).toMatchObject({ state: 'started' });
    const status = await runCli(['--config', configPath, 'status']);
    expect(JSON.parse(status.stdout).plugins).toContainEqual(
      expect.objectContaining({ name: 'boom', state: 'failed', package: 'pipit-plugin-boom' }),
    );
  });
});

describe('pipit plugin new', () => {
  it('writes a package whose own test passes with npm test, offline', async () => {
    const t = tempDir('pipit-plugin-new-');
    try {
      const dir = join(t.dir, 'weather');
      const made = await runCli(['plugin', 'new', 'weather', '--dir', dir]);
      expect(made.code).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({
        name: 'pipit-plugin-weather',
        keywords: ['pipit-plugin'],
        pipit: { plugin: 'weather' },
      });
      // "npm install" without a network: Pipit itself is linked in, as npm link would.
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(REPO, join(dir, 'node_modules', 'pipit'));
      expect(existsSync(join(REPO, 'dist/testing.js'))).toBe(true);
      const npm = spawn('npm', ['test', '--offline'], {
        cwd: dir,
        // The Node that runs Pipit (24, from its node_modules) runs the test too.
        env: { ...process.env, PATH: `${join(REPO, 'node_modules/.bin')}:${process.env.PATH}` },
      });
      let out = '';
      npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
      npm.stderr.on('data', (c: Buffer) => (out += c.toString()));
      const [code] = (await once(npm, 'exit')) as [number];
      expect(out).toMatch(/\bpass 1\b/);
      expect(out).toMatch(/\bfail 0\b/);
      expect(code).toBe(0);
      // A second run refuses to write over it.
      const again = await runCli(['plugin', 'new', 'weather', '--dir', dir]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('is not empty');
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
