// Platypush's own sample configuration, its examples uncommented (fixtures/sample-config.yaml):
// Pipit starts on it, with one warning per step that calls a plugin Pipit lacks, all at once; such a
// step fails when it runs, and the failure is in the run history.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const SAMPLE = readFileSync(join(import.meta.dirname, 'fixtures', 'sample-config.yaml'), 'utf8');

// Every step of the sample that calls a plugin Pipit does not have, as the warning names it.
const MISSING = [
  ['sensor.ltr559', 'procedure.at_home step 2'],
  ['tts.mimic3', 'procedure.at_home step 4'],
  ['lastfm', 'event.hook.OnNewMusicActivity then step 1 > if > step 1'],
] as const;

const warningFor = ([plugin, path]: readonly [string, string]) =>
  `plugin "${plugin}" is not installed: ${path} (`;

let tmp: ReturnType<typeof tempDir>;
let configPath: string;
beforeAll(() => {
  tmp = tempDir();
  configPath = join(tmp.dir, 'config.yaml');
  // Only where it writes and listens changes: a temporary workdir, a free loopback port, and a
  // broker name that cannot resolve, so that nothing leaves this machine.
  writeFileSync(
    configPath,
    SAMPLE.replace('workdir: ~/.local/share/platypush', `workdir: ${join(tmp.dir, 'data')}`)
      .replace('bind_address: 0.0.0.0', 'bind_address: 127.0.0.1')
      .replace('port: 8008', 'port: 0')
      .replaceAll('my-mqtt-broker', 'my-mqtt-broker.invalid')
      .replace('bridge: 192.168.1.3', 'bridge: hue-bridge.invalid')
      .replace(/(music\.mpd:\n {2}host:) localhost/, '$1 mpd.invalid'),
  );
});
afterAll(() => tmp.cleanup());

describe("Platypush's sample configuration", () => {
  it('pipit config check lists every step calling a missing plugin in one run, and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['config', 'check', '--config', configPath]);
    expect(code, stderr).toBe(0);
    for (const missing of MISSING) expect(stdout).toContain(warningFor(missing));
    // db is Pipit's own now: off without a section, which the warning says to add.
    expect(stdout).toMatch(
      /event\.hook\.OnSensorDataReceived then step 1: plugin "db" is not enabled: add a "db:" section/,
    );
    expect(stdout).toMatch(/plugin "shell" is not enabled/);
    // light.hue is Pipit's own now: its section enables it, and its steps are not warned about.
    expect(stdout).not.toMatch(/plugin "light\.hue"/);
    expect(stdout).toMatch(/OK, \d+ warnings/);
  });

  describe('started', () => {
    let proc: PipitProcess;
    beforeAll(async () => {
      proc = await startPipitProcess(configPath);
    }, 30_000);
    afterAll(async () => {
      await proc.stop();
    });

    it('starts, warning once about every step that calls a missing plugin', () => {
      const logs = proc.logs
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg))
        .join('\n');
      for (const missing of MISSING) {
        const at = logs.indexOf(warningFor(missing));
        expect(at, warningFor(missing)).toBeGreaterThan(-1);
        expect(logs.indexOf(warningFor(missing), at + 1)).toBe(-1);
      }
    });

    it('such a step fails when it runs, and the run history says why', async () => {
      const run = await runCli(['--config', configPath, 'run', 'procedure.at_home']);
      expect(run.code).toBe(1);
      const errors = (JSON.parse(run.stdout) as { response: { errors: string[] } }).response.errors;
      expect(errors.join('\n')).toMatch(
        /no plugin "sensor\.ltr559" for action "sensor\.ltr559\.get_measurement": it is not installed \(no Pipit plugin provides it yet\)/,
      );
      const list = await runCli([
        '--config',
        configPath,
        'run',
        'runs.list',
        'action=procedure.at_home',
      ]);
      const { runs } = (
        JSON.parse(list.stdout) as {
          response: { output: { runs: { outcome: string; errors: string[] }[] } };
        }
      ).response.output;
      expect(runs[0]?.outcome).toBe('failed');
      expect(runs[0]?.errors.join('\n')).toMatch(/no plugin "sensor\.ltr559" .*not installed/);
    });

    it("music.mpd is Pipit's own now: its steps are not warned about, and fail while MPD is away", async () => {
      expect(proc.logs.join('\n')).not.toMatch(/plugin "music\.mpd" is not installed/);
      const run = await runCli(['--config', configPath, 'run', 'procedure.outside_home']);
      expect(run.code).toBe(1);
      const errors = (JSON.parse(run.stdout) as { response: { errors: string[] } }).response.errors;
      expect(errors.join('\n')).toMatch(/music\.mpd: MPD at mpd\.invalid:6600 is not connected/);
    });
  });
});
