// Pipit for `npm run bench:peers`: `pipit start` of a built copy (what an installed Pipit runs),
// on a configuration whose web hook `bench` is answered by a YAML hook or by a script hook, both
// generated from the same reply spec as Node-RED's function node (bench/hook-config.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PEER_HOOK_REPLY, scriptHookSource, yamlHookSource } from './hook-config.ts';
import { PEER_DEVICE_ID } from './node-red.ts';

/** Which of Pipit's two ways of writing a hook answers the web hook. */
export type HookForm = 'yaml' | 'script';

/** A prepared Pipit: its folder, the arguments that start it there, and a token for `/execute`. */
export interface PreparedPipit {
  dir: string;
  args: string[];
  port: number;
  token: string;
}

/**
 * Writes a configuration (and for `script`, its script) into a new temporary folder, creates a
 * user and an API token there with the CLI (`--local`, before any service runs), and returns the
 * arguments of `pipit start` from the built copy at `root`. Remove `dir` after.
 *
 * @example
 * const pipit = preparePipit(buildCopy(), 'yaml', 8008);
 * spawn(process.execPath, pipit.args, { cwd: pipit.dir });
 */
export function preparePipit(root: string, form: HookForm, port: number): PreparedPipit {
  const dir = mkdtempSync(join(tmpdir(), `pipit-peers-${form}-`));
  mkdirSync(join(dir, 'scripts'));
  if (form === 'script')
    writeFileSync(
      join(dir, 'scripts', 'bench-hook.mjs'),
      scriptHookSource('bench', PEER_HOOK_REPLY),
    );
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      `device_id: ${PEER_DEVICE_ID}`,
      'workdir: ./data',
      'scripts_dir: ./scripts',
      'logging: {level: warn}',
      'backend.http:',
      `  port: ${port}`,
      '  bind_address: 127.0.0.1',
      form === 'yaml' ? yamlHookSource('bench', PEER_HOOK_REPLY) : '',
    ].join('\n'),
  );
  const cli = (args: string[], input?: string) => {
    const done = spawnSync(
      process.execPath,
      [join(root, 'bin/pipit.js'), ...args, '--local', '--config', 'config.yaml'],
      { cwd: dir, encoding: 'utf8', ...(input === undefined ? {} : { input }) },
    );
    if (done.status !== 0)
      throw new Error(
        `pipit ${args.join(' ')} failed (${done.status}):\n${done.stdout}${done.stderr}`,
      );
    return done.stdout;
  };
  cli(['user', 'add', 'bench', '--password-stdin'], 'bench password 123\n');
  const { token } = JSON.parse(cli(['token', 'create', 'bench', '--name', 'bench'])) as {
    token: string;
  };
  const args = [join(root, 'bin/pipit.js'), 'start', '--config', 'config.yaml'];
  return { dir, args, port, token };
}
