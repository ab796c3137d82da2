import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG_YAML } from '../../src/config/default-config.ts';
import { loadConfig } from '../../src/config/load.ts';
import { findConfig, userConfigPath } from '../../src/config/paths.ts';
import { PipitError } from '../../src/core/errors.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { tempDir } from '../helpers/service.ts';

describe('configuration', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  const write = (name: string, text: string) => {
    const path = join(dir, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  const load = (text: string, env: NodeJS.ProcessEnv = {}) =>
    loadConfig({ path: write('config.yaml', text), plugins: builtinPlugins, env });
  const failure = (text: string, env: NodeJS.ProcessEnv = {}): string => {
    try {
      load(text, env);
    } catch (err) {
      expect(err).toBeInstanceOf(PipitError);
      expect((err as PipitError).code).toBe('CONFIG_INVALID');
      return (err as PipitError).message;
    }
    throw new Error('expected the configuration to be refused');
  };

  it('loads the commented default and enables HTTP on 8008', () => {
    const config = load(DEFAULT_CONFIG_YAML);
    expect(config.http).toMatchObject({
      port: 8008,
      bind_address: '0.0.0.0',
      max_body_bytes: 1048576,
    });
    expect([...config.plugins.keys()].sort()).toEqual([
      'automations',
      'event',
      'http',
      'inspect',
      'logger',
      'mqtt',
      'runs',
      'system',
      'utils',
      'variable',
    ]);
  });

  it('resolves workdir and scripts_dir relative to the file, and an empty backend.http gets defaults', () => {
    const config = load('device_id: den\nworkdir: ./data\nscripts_dir: s\nbackend.http:\n');
    expect(config.deviceId).toBe('den');
    expect(config.workdir).toBe(join(dir, 'data'));
    expect(config.scriptsDir).toBe(join(dir, 's'));
    expect(config.http?.port).toBe(8008);
  });

  it('has no HTTP backend without the section', () => {
    expect(load('device_id: den\n').http).toBeNull();
  });

  it('merges included files, relative to the including file, the including file winning', () => {
    write('conf.d/extra.yaml', 'device_id: from-include\nprocedure.hi:\n  - action: utils.echo\n');
    const config = load('include: [conf.d/extra.yaml]\ndevice_id: main\n');
    expect(config.deviceId).toBe('main');
    expect(config.procedures.map((p) => p.key)).toEqual(['procedure.hi']);
    expect(config.procedures[0]!.source).toBe(join(dir, 'conf.d/extra.yaml'));
  });

  it('disables a core plugin with enabled: false', () => {
    expect(load('utils:\n  enabled: false\n').plugins.has('utils')).toBe(false);
  });

  it('takes secrets from the environment with !env, with an optional default', () => {
    const config = load('device_id: !env PIPIT_TEST_ID\nworkdir: !env "PIPIT_TEST_DIR:-/tmp/x"\n', {
      PIPIT_TEST_ID: 'envhost',
    });
    expect(config.deviceId).toBe('envhost');
    expect(config.workdir).toBe('/tmp/x');
  });

  it.each([
    ['bad YAML', 'backend.http: [\n', /not valid YAML/],
    ['a list at the top', '- a\n- b\n', /top level must be a mapping/],
    ['an unknown key', 'devise_id: x\n', /unknown key "devise_id"/],
    [
      'a port out of range',
      'backend.http:\n  port: 70000\n',
      /backend\.http\.port: .*65535.*; got 70000/,
    ],
    [
      'a port that is text',
      'backend.http:\n  port: eighty\n',
      /backend\.http\.port: .*number.*; got "eighty"/,
    ],
    ['an unknown HTTP key', 'backend.http:\n  prot: 80\n', /backend\.http: unknown key "prot"/],
    ['an unknown plugin setting', 'utils:\n  colour: red\n', /utils: unknown key "colour"/],
    ['a bad device id', 'device_id: "my host"\n', /device_id: use 1 to 64 letters/],
    [
      'an unset variable',
      'device_id: !env PIPIT_NOT_SET\n',
      /environment variable PIPIT_NOT_SET is not set/,
    ],
    ['a missing include', 'include: nope.yaml\n', /include: file .*nope\.yaml does not exist/],
    [
      'a non-boolean enabled',
      'utils:\n  enabled: maybe\n',
      /utils\.enabled: expected true or false; got "maybe"/,
    ],
    [
      'a plugin section that is not a mapping',
      'utils: 5\n',
      /utils: expected a mapping of settings \(or nothing\); got 5/,
    ],
    [
      'a bad redis url',
      'redis:\n  url: localhost:6379\n',
      /redis\.url: must start with redis:\/\//,
    ],
  ])('refuses %s naming the file, the key and the value', (_name, text, pattern) => {
    const message = failure(text);
    expect(message).toContain(join(dir, 'config.yaml'));
    expect(message).toMatch(pattern);
  });

  it('names the included file where the mistake is', () => {
    write('bad.yaml', 'backend.http:\n  port: -1\n');
    const message = failure('include: bad.yaml\n');
    expect(message).toContain(join(dir, 'bad.yaml'));
    expect(message).toMatch(/backend\.http\.port/);
  });

  it('refuses a plugin configured under its name and its alias', () => {
    const aliased = { ...builtinPlugins[0]!, name: 'music.demo', aliases: ['music.other'] };
    const text = 'music.demo: {}\nmusic.other: {}\n';
    expect(() =>
      loadConfig({ path: write('config.yaml', text), plugins: [aliased], env: {} }),
    ).toThrow(/"music\.other" configures music\.demo a second time \(it is an alias\)/);
  });

  it('refuses include loops', () => {
    write('a.yaml', 'include: config.yaml\n');
    expect(failure('include: a.yaml\n')).toMatch(/included in a loop/);
  });

  it('searches $PIPIT_CONFIG, ./config.yaml, then the XDG path', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'xdg') } as NodeJS.ProcessEnv;
    expect(findConfig({ env, cwd: dir })).toBeNull();
    const xdg = write('xdg/pipit/config.yaml', 'device_id: xdg\n');
    expect(userConfigPath(env)).toBe(xdg);
    expect(findConfig({ env, cwd: dir })).toBe(xdg);
    const local = write('config.yaml', 'device_id: local\n');
    expect(findConfig({ env, cwd: dir })).toBe(local);
    expect(findConfig({ env: { ...env, PIPIT_CONFIG: 'other.yaml' }, cwd: dir })).toBe(
      join(dir, 'other.yaml'),
    );
    expect(findConfig({ explicit: '/x/y.yaml', env, cwd: dir })).toBe('/x/y.yaml');
    expect(readFileSync(xdg, 'utf8')).toContain('xdg');
  });
});
