// What a newcomer meets first on the command line: --version, help for every user and token
// command, a truthful `run --help`, and a replay that fails again failing the command.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
    version: string;
  }
).version;

let tmp: ReturnType<typeof tempDir>;
let configPath: string;
beforeAll(() => {
  tmp = tempDir();
  configPath = join(tmp.dir, 'config.yaml');
  writeFileSync(configPath, 'workdir: ./data\nprocedure.broken:\n  - action: variable.get\n');
});
afterAll(() => tmp.cleanup());

const json = (text: string) =>
  JSON.parse(text) as { response: { output: unknown; errors: string[] } };

describe('the pipit command', () => {
  it('--version prints the version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(VERSION);
  });

  it.each(['user', 'token'])('every %s command has a line of help', async (group) => {
    const { stdout } = await runCli([group, '--help']);
    const commands = stdout.slice(stdout.indexOf('Commands:')).split('\n').slice(1);
    const named = commands.filter((line) => /^ {2}\w/.test(line) && !line.startsWith('  help'));
    expect(named.length).toBeGreaterThanOrEqual(3);
    for (const line of named) expect(line, line).toMatch(/^ {2}\S.*\s{2,}\S/);
  });

  it('run --help says it goes through the running service', async () => {
    const { stdout } = await runCli(['run', '--help']);
    expect(stdout).not.toMatch(/in-process/);
    expect(stdout).toMatch(/through the running service/);
  });

  it('runs.replay of a run that fails again exits non-zero', async () => {
    const first = await runCli(['--config', configPath, 'run', '--local', 'procedure.broken']);
    expect(first.code).toBe(1);
    const list = await runCli([
      '--config',
      configPath,
      'run',
      '--local',
      'runs.list',
      'action=procedure.broken',
    ]);
    const { runs } = json(list.stdout).response.output as { runs: { id: string }[] };
    const replay = await runCli([
      '--config',
      configPath,
      'run',
      '--local',
      'runs.replay',
      `id=${runs[0]!.id}`,
    ]);
    expect((json(replay.stdout).response.output as { outcome: string }).outcome).toBe('failed');
    expect(replay.code).toBe(1);
  });
});
