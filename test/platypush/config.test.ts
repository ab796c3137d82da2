// A configuration in Platypush's documented shape starts Pipit with warnings only, and
// `pipit config check` lists them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { runCli, startPipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

// The shape of Platypush's sample config.yaml and its documentation's examples.
const PLATYPUSH_CONFIG = `
device_id: living-room
workdir: ./data
cachedir: ~/.cache/platypush
main.db:
  engine: sqlite:////home/pi/.local/share/platypush/main.db
logging:
  filename: ~/.local/log/platypush/platypush.log
  level: INFO
  format: '%(asctime)-15s|%(levelname)5s|%(name)s|%(message)s'
redis:
  host: 127.0.0.1
  port: 6379
backend.redis:
  redis_args:
    host: 127.0.0.1
    port: 6379
backend.http:
  port: 0
  bind_address: 127.0.0.1
  num_workers: 4
  use_werkzeug_server: false
  ssl_cert: /etc/ssl/cert.pem
backend.mqtt:
  port: 1883
media.kodi:
  host: localhost
  port: 8080
camera.pi:
  listen: true
music.spotfy:
  client_id: abc
procedure.at_home:
  - action: variable.set
    args: {at_home: true}
event.hook.OnCustomEvent:
  if:
    type: platypush.message.event.custom.CustomEvent
    subtype: hello
  then:
    - action: variable.set
      args: {greeted: true}
cron.GoodMorning:
  cron_expression: '30 7 * * * 5'
  actions:
    - action: procedure.at_home
`;

let tmp: ReturnType<typeof tempDir>;
let configPath: string;
beforeEach(() => {
  tmp = tempDir();
  configPath = join(tmp.dir, 'config.yaml');
  writeFileSync(configPath, PLATYPUSH_CONFIG);
  mkdirSync(join(tmp.dir, 'scripts'));
  writeFileSync(join(tmp.dir, 'scripts', 'lights.py'), 'from platypush import hook\n');
});
afterEach(() => tmp.cleanup());

describe('a Platypush config.yaml', () => {
  it("loads the shape of Platypush's own test configuration (include, main.db, werkzeug, redis port)", () => {
    mkdirSync(join(tmp.dir, 'include'));
    writeFileSync(
      join(tmp.dir, 'include', 'procedures.yaml'),
      'procedure.save_note:\n  - action: file.write\n    args:\n      file: ${path}\n      content: ${text}\n',
    );
    writeFileSync(
      configPath,
      'include:\n  - include/procedures.yaml\nmain.db:\n  engine: sqlite:////tmp/x.db\nbackend.http:\n  port: 8124\n  num_workers: 1\n  use_werkzeug_server: True\nredis:\n  port: 16380\n',
    );
    const config = loadConfig({ path: configPath, plugins: builtinPlugins });
    expect(config.http?.port).toBe(8124);
    expect(config.redisUrl).toBe('redis://127.0.0.1:16380');
    expect(config.procedures.map((p) => p.key)).toEqual(['procedure.save_note']);
    expect(config.warnings).toHaveLength(4);
  });

  it('loads, with one warning per Platypush-only key and unknown plugin', () => {
    const config = loadConfig({ path: configPath, plugins: builtinPlugins });
    const text = config.warnings.join('\n');
    for (const expected of [
      /"main\.db" is Platypush's and is ignored: Pipit keeps its data in <workdir>\/pipit\.db/,
      /"cachedir" is Platypush's and is ignored/,
      /logging\.filename is Platypush's and is ignored/,
      /logging\.format is a Python format string/,
      /backend\.http\.num_workers is Platypush's and is ignored/,
      /backend\.http\.use_werkzeug_server is Platypush's/,
      /backend\.http\.ssl_cert is Platypush's and is ignored: terminate HTTPS in a reverse proxy/,
      /backend\.redis is Platypush's message bus/,
      /backend backend\.mqtt is not available in Pipit; its section is ignored/,
      /plugin media\.kodi is not available in Pipit; its section is ignored/,
      /plugin camera\.pi is not available in Pipit/,
      /plugin music\.spotfy is not available in Pipit; its section is ignored \(no Pipit plugin provides it yet\)\. Did you mean "music\.spotify"\?/,
    ])
      expect(text).toMatch(expected);
    expect(config.logLevel).toBe('info');
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.http?.port).toBe(0);
  });

  it("drops Platypush's mqtt keys with a warning each (run_topic_prefix, listeners, tls_*)", () => {
    writeFileSync(
      configPath,
      'mqtt:\n  host: 127.0.0.1\n  run_topic_prefix: platypush/run\n  listeners: []\n  tls_version: tlsv1.2\n',
    );
    const config = loadConfig({ path: configPath, plugins: builtinPlugins });
    expect(config.warnings.join('\n')).toMatch(
      /mqtt\.run_topic_prefix is Platypush's and is ignored: Pipit runs no actions from MQTT messages/,
    );
    expect(config.warnings).toHaveLength(3);
    expect(config.plugins.get('mqtt')?.config).toMatchObject({ host: '127.0.0.1' });
  });

  it.each([
    ['DEBUG', 'debug'],
    ['WARNING', 'warn'],
    ['warning', 'warn'],
    ['CRITICAL', 'fatal'],
    ['error', 'error'],
  ])('reads the Python logging level %s as %s', (python, pipit) => {
    writeFileSync(configPath, `logging:\n  level: ${python}\n`);
    expect(loadConfig({ path: configPath, plugins: builtinPlugins }).logLevel).toBe(pipit);
  });

  it("still refuses a misspelt key inside one of Pipit's sections", () => {
    writeFileSync(configPath, 'backend.http:\n  prot: 8008\n');
    expect(() => loadConfig({ path: configPath, plugins: builtinPlugins })).toThrow(
      /backend\.http: unknown key "prot"\. Did you mean "port"\?/,
    );
  });

  it('pipit config check prints every warning (the Python script too) and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['config', 'check', '--config', configPath]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/warning: .*plugin media\.kodi is not available in Pipit/);
    expect(stdout).toMatch(/warning: .*lights\.py: a Python script, which Pipit does not run/);
    expect(stdout).toMatch(/OK, \d+ warnings/);
  });

  it('pipit config check exits 78 on an error', async () => {
    writeFileSync(configPath, 'procedure.x:\n  - action: utils.ecoh\n');
    const { code, stderr } = await runCli(['config', 'check', '--config', configPath]);
    expect(code).toBe(78);
    expect(stderr).toMatch(/Did you mean "echo"\?/);
  });

  it('starts with warnings only, and its hooks and crons are live', async () => {
    const proc = await startPipitProcess(configPath);
    try {
      const logs = proc.logs.join('\n');
      expect(logs).toMatch(/plugin media\.kodi is not available in Pipit/);
      expect(logs).toMatch(/crons: GoodMorning \(next \d{4}-\d\d-\d\dT\d\d:30:05/);
      const { stdout } = await runCli([
        '--config',
        configPath,
        'run',
        'event.fire',
        'subtype=hello',
      ]);
      expect(JSON.parse(stdout).response.errors).toEqual([]);
      await expect
        .poll(async () => {
          const res = await runCli(['--config', configPath, 'run', 'variable.get', 'name=greeted']);
          return (JSON.parse(res.stdout) as { response: { output: unknown } }).response.output;
        })
        .toEqual({ greeted: true });
    } finally {
      await proc.stop();
    }
  });
});
