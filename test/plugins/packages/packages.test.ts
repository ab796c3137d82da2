// Plugin packages enabled from the config's `plugins:` list: found by name or path, configured,
// called; and every way one can be wrong, each with an error that names the package and the fix.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Service } from '../../../src/app/service.ts';
import { scaffoldPlugin } from '../../../src/cli/plugin-scaffold.ts';
import { PipitError } from '../../../src/core/errors.ts';
import { pipitVersion } from '../../../src/lib/version.ts';
import { captureLog, tempDir } from '../../helpers/service.ts';
import { installHello, startService, writePackage } from './fixtures.ts';

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function dir(): string {
  const t = tempDir('pipit-packages-');
  cleanups.push(t.cleanup);
  return t.dir;
}

async function start(at: string, yaml: string, log?: ReturnType<typeof captureLog>['log']) {
  const service = await startService(at, yaml, log);
  cleanups.push(() => service.close());
  return service;
}

async function call(service: Service, action: string, args: Record<string, unknown> = {}) {
  const result = await service.execute(
    { type: 'request', action, args },
    { transport: 'test', caller: { user: 'ada', via: 'token' } },
  );
  return { output: result.message.response.output, error: result.error };
}

async function startFails(at: string, yaml: string): Promise<PipitError> {
  const err = await startService(at, yaml).then(
    (s) => (cleanups.push(() => s.close()), undefined),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PipitError);
  expect((err as PipitError).code).toBe('CONFIG_INVALID');
  return err as PipitError;
}

describe('plugin packages', () => {
  it('enables a package by name, configures it, and calls its actions and events', async () => {
    const at = dir();
    installHello(at);
    const service = await start(at, 'plugins: [pipit-plugin-hello]\nhello: {greeting: Hi}');
    const events: string[] = [];
    service.events.subscribe(({ event }) => events.push(event.args.type));
    const greet = await call(service, 'hello.greet', { name: 'Ada' });
    expect(greet.error).toBeUndefined();
    expect(greet.output).toEqual({ text: 'Hi, Ada!', count: 1, by: 'ada' });
    await expect.poll(() => events).toContain('pipit.message.event.hello.GreetedEvent');
    // Its own key-value store, and another plugin's action called through run().
    expect((await call(service, 'hello.count')).output).toEqual({ count: 1 });
    expect((await call(service, 'hello.echo_via', { text: 'via' })).output).toEqual({
      text: 'via',
    });
    // Argument checks come from its zod parameters, as for Pipit's own actions.
    const bad = await call(service, 'hello.greet', { name: 5 });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    // It is in the catalog with its parameters, and its event kind is known to hooks.
    const catalog = service.registry.catalog().find((p) => p.name === 'hello');
    expect(catalog?.actions.map((a) => a.name)).toEqual([
      'hello.count',
      'hello.echo_via',
      'hello.greet',
    ]);
    expect(service.events.kinds.resolve('GreetedEvent')).toBe(
      'pipit.message.event.hello.GreetedEvent',
    );
    // Its runs are recorded like any other.
    const runs = (await call(service, 'runs.list', { action: 'hello.greet' })).output as {
      runs: { name: string; outcome: string }[];
    };
    expect(runs.runs.map((r) => r.outcome)).toEqual(['failed', 'ok']);
  });

  it('enables a package by a path relative to the config file, with its defaults', async () => {
    const at = dir();
    installHello(at, 'my-plugins/hello');
    const service = await start(at, 'plugins: [./my-plugins/hello]');
    expect((await call(service, 'hello.greet', { name: 'Bo' })).output).toMatchObject({
      text: 'Hello, Bo!',
    });
    expect(service.registry.plugins.get('hello')?.def.from).toMatchObject({
      package: 'pipit-plugin-hello',
      version: '1.0.0',
    });
  });

  it('keeps what a package stored across a restart', async () => {
    const at = dir();
    installHello(at);
    const first = await startService(at, 'plugins: [pipit-plugin-hello]');
    await call(first, 'hello.greet', { name: 'Ada' });
    await call(first, 'hello.greet', { name: 'Bo' });
    await first.close();
    const second = await start(at, 'plugins: [pipit-plugin-hello]');
    expect((await call(second, 'hello.count')).output).toEqual({ count: 2 });
  });

  it('refuses a bad config value, naming the key, the package and the fix', async () => {
    const at = dir();
    installHello(at);
    const err = await startFails(at, 'plugins: [pipit-plugin-hello]\nhello: {greeting: 5}');
    expect(err.message).toMatch(/hello\.greeting/);
    expect(err.message).toMatch(/pipit-plugin-hello@1\.0\.0/);
    const unknown = await startFails(at, 'plugins: [pipit-plugin-hello]\nhello: {greting: Hi}');
    expect(unknown.message).toMatch(/greting/);
  });

  it('refuses a package made for another Pipit, naming both versions', async () => {
    const at = dir();
    writePackage(at, 'pipit-plugin-future', {
      index: 'export default {}',
      packageJson: { peerDependencies: { pipit: '^9.0.0' } },
    });
    const err = await startFails(at, 'plugins: [pipit-plugin-future]');
    expect(err.message).toContain('pipit-plugin-future@2.3.4 is made for pipit ^9.0.0');
    expect(err.message).toContain(`this is pipit ${pipitVersion()}`);
  });

  it('refuses two plugins of one name, and a package named like a plugin Pipit ships', async () => {
    const at = dir();
    for (const name of ['pipit-plugin-a', 'pipit-plugin-b'])
      writePackage(at, name, {
        index: 'export default {}',
        packageJson: { pipit: { plugin: 'dup' } },
      });
    const err = await startFails(at, 'plugins: [pipit-plugin-a, pipit-plugin-b]');
    expect(err.message).toMatch(/pipit-plugin-b .*"dup", and so is pipit-plugin-a/);
    writePackage(at, 'pipit-plugin-utils', { index: 'export default {}' });
    const builtin = await startFails(at, 'plugins: [pipit-plugin-utils]');
    expect(builtin.message).toMatch(/"utils", and so is a plugin Pipit ships/);
  });

  it('refuses a package that is not installed, saying how to install it', async () => {
    const at = dir();
    const err = await startFails(at, 'plugins: [pipit-plugin-nowhere]');
    expect(err.message).toContain('npm install pipit-plugin-nowhere');
  });

  it('starts the rest when a package throws at import or in init: its calls answer 503', async () => {
    const at = dir();
    writePackage(at, 'pipit-plugin-boom', { index: "throw new Error('boom at import');" });
    writePackage(at, 'pipit-plugin-stuck', {
      index: `export default {
        name: 'stuck', summary: 'never starts',
        actions: [{ name: 'go', summary: 'x', params: {}, run: () => 1 }],
        init() { throw new Error('no device at /dev/ttyUSB0'); },
      };`,
    });
    installHello(at);
    const { log, lines } = captureLog('info');
    const service = await start(
      at,
      'plugins: [pipit-plugin-boom, pipit-plugin-stuck, pipit-plugin-hello]',
      log,
    );
    const boom = await call(service, 'boom.anything');
    expect(boom.error?.code).toBe('UNAVAILABLE');
    expect(boom.error?.message).toMatch(
      /^plugin "boom" failed to start: it threw when imported: boom at import/,
    );
    const stuck = await call(service, 'stuck.go');
    expect(stuck.error?.code).toBe('UNAVAILABLE');
    expect(stuck.error?.message).toContain('no device at /dev/ttyUSB0');
    expect(stuck.error?.message).toContain('pipit-plugin-stuck@2.3.4');
    // The rest runs, and the log names each package and its version.
    expect((await call(service, 'hello.greet', { name: 'Ada' })).error).toBeUndefined();
    const failures = lines.filter((l) => String(l.msg).includes('failed to start'));
    expect(failures.map((l) => [l.package, l.version])).toEqual([
      ['pipit-plugin-boom', '2.3.4'],
      ['pipit-plugin-stuck', '2.3.4'],
    ]);
  });

  it('refuses a default export that is not a plugin, and a name that disagrees', async () => {
    const at = dir();
    writePackage(at, 'pipit-plugin-plain', { index: 'export default { hello: 1 };' });
    writePackage(at, 'pipit-plugin-other', {
      index: "export default { name: 'someone', summary: 'x', actions: [] };",
    });
    const service = await start(at, 'plugins: [pipit-plugin-plain, pipit-plugin-other]');
    expect((await call(service, 'plain.x')).error?.message).toContain(
      'export default definePlugin',
    );
    expect((await call(service, 'other.x')).error?.message).toContain(
      'defines a plugin named "someone"',
    );
  });
});

describe('plugin package events in hooks', () => {
  it('a YAML hook names a package event by its short name, and runs on it', async () => {
    const at = dir();
    installHello(at);
    const service = await start(
      at,
      [
        'plugins: [pipit-plugin-hello]',
        'event.hook.OnGreeted:',
        '  if: {type: GreetedEvent}',
        '  then:',
        '    - action: variable.set',
        "      args: {last_greeted: '${name}'}",
      ].join('\n'),
    );
    await call(service, 'hello.greet', { name: 'Cy' });
    await vi.waitFor(() => expect(service.store.variables.get('last_greeted')).toBe('Cy'));
  });
});

describe('plugin package mistakes found before import', () => {
  it('refuses a path without a package.json, and a package.json that is not JSON, naming each', async () => {
    const at = dir();
    const noPackage = await startFails(at, 'plugins: [./nowhere]');
    expect(noPackage.message).toMatch(
      /"\.\/nowhere" is not a plugin package: .*nowhere has no package\.json/,
    );
    writePackage(at, 'pipit-plugin-garbled', { index: 'export default {}' });
    writeFileSync(join(at, 'node_modules/pipit-plugin-garbled/package.json'), '{ not json');
    const garbled = await startFails(at, 'plugins: [pipit-plugin-garbled]');
    expect(garbled.message).toMatch(/pipit-plugin-garbled.*package\.json is not valid JSON/);
  });

  it('pipit plugin new refuses a name that is not a plugin name, saying what is allowed', () => {
    expect(() => scaffoldPlugin('Weather Station', { pipitVersion: '0.1.0' })).toThrow(
      /"Weather Station" is not a plugin name: use lower-case letters/,
    );
  });
});
