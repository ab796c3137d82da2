import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { HttpConfig } from '../../src/config/schema.ts';
import { builtinPlugins } from '../../src/plugins/index.ts';
import { tempDir } from '../helpers/service.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const UNIT = join(ROOT, 'deploy', 'pipit.service');
const DOCKERFILE = join(ROOT, 'Dockerfile');
const DOCKER_CONFIG = join(ROOT, 'deploy', 'docker-config.yaml');
const DOCKER_STEPS = join(ROOT, 'scripts', 'docker-steps.sh');

const run = promisify(execFile);

/** Runs a command to completion: its status and its output (stdout and stderr together). */
async function capture(
  file: string,
  args: string[],
  opts: { timeout?: number } = {},
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(file, args, {
      timeout: opts.timeout ?? 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string; message: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin'];
  return dirs.map((d) => join(d, name)).find((p) => isExecutable(p));
}

/** A systemd unit file as section → key → values (a key may repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const eq = line.indexOf('=');
    if (!current || eq < 0) throw new Error(`not a unit file line: ${line}`);
    const key = line.slice(0, eq).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return sections;
}

interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile as stages of instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  const joined = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n')
    .replace(/\\\n/g, ' ');
  for (const line of joined.split('\n')) {
    const match = /^\s*([A-Za-z]+)\s+(.*\S)\s*$/.exec(line);
    if (!match) continue;
    const instruction = { keyword: match[1]!.toUpperCase(), args: match[2]! };
    if (instruction.keyword === 'FROM') stages.push([]);
    if (!stages.length) throw new Error(`an instruction before FROM: ${line}`);
    stages.at(-1)!.push(instruction);
  }
  return stages;
}

const argsOf = (stage: Instruction[], keyword: string): string[] =>
  stage.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('deploy/pipit.service', () => {
  const unit = parseUnit(readFileSync(UNIT, 'utf8'));
  const service = unit.get('Service') ?? new Map<string, string[]>();
  const one = (key: string): string | undefined => service.get(key)?.at(-1);
  let cleanup: (() => void) | undefined;
  afterEach(() => {
    cleanup?.();
    cleanup = undefined;
  });

  /**
   * Verifies a copy of the unit named pipit.service; an ExecStart= whose program does not exist on
   * this machine is pointed at /bin/true (verify would report it, and only that line changes).
   */
  async function verify(edit: (text: string) => string = (t) => t) {
    const analyze = which('systemd-analyze');
    if (!analyze)
      throw new Error(
        'systemd-analyze is not installed: run scripts/system-deps.sh (it comes with Debian\'s "systemd" package)',
      );
    const tmp = tempDir('pipit-unit-');
    cleanup = tmp.cleanup;
    const copy = join(tmp.dir, 'pipit.service');
    let replaced = false;
    const text = readFileSync(UNIT, 'utf8').replace(
      /^ExecStart=[-@:+!]*(\S+)(.*)$/gm,
      (line, program: string) => {
        if (isAbsolute(program) && isExecutable(program)) return line;
        replaced = true;
        return 'ExecStart=/bin/true';
      },
    );
    writeFileSync(copy, edit(text));
    return { ...(await capture(analyze, ['verify', copy])), replaced };
  }

  it('passes systemd-analyze verify without a single warning', async () => {
    const result = await verify();
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
    // /usr/bin/env exists everywhere: the shipped ExecStart= is what was verified.
    expect(result.replaced).toBe(false);
  });

  it('would be caught by that check with a misspelt value or an unknown key', async () => {
    const bad = await verify((t) =>
      t
        .replace('ProtectSystem=strict', 'ProtectSystem=strickt')
        .replace('[Install]', 'Restrat=always\n[Install]'),
    );
    expect(bad.output).toMatch(/ProtectSystem|strickt/);
    expect(bad.output).toMatch(/Restrat/);
  });

  it('runs as a dedicated user with its state in /var/lib/pipit and its config in /etc/pipit', () => {
    expect(one('User')).toBe('pipit');
    expect(one('Group')).toBe('pipit');
    expect(one('DynamicUser')).toBeUndefined();
    expect(one('StateDirectory')).toBe('pipit');
    expect(one('StateDirectoryMode')).toBe('0700');
    expect(one('WorkingDirectory')).toBe('/var/lib/pipit');
    expect(one('ConfigurationDirectory')).toBe('pipit');
    expect(one('ExecStart')).toMatch(/\bpipit(\.js)? start --config \/etc\/pipit\/config\.yaml$/);
    expect(one('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(one('UMask')).toBe('0077');
    expect(one('LimitNOFILE')).toBe('65536');
    expect(unit.get('Unit')?.get('AssertPathExists')).toEqual(['/etc/pipit/config.yaml']);
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('restarts after a crash but not after a configuration error, and stops after the grace period', () => {
    expect(one('Restart')).toBe('on-failure');
    expect(one('RestartPreventExitStatus')?.split(/\s+/)).toContain('78');
    // 70 (uncaught exception) and 1 (start failed) must stay failures, or nothing restarts them.
    const success = (service.get('SuccessExitStatus') ?? []).join(' ').split(/\s+/);
    expect(success).not.toContain('70');
    expect(success).not.toContain('1');
    expect(one('KillMode')).toBe('mixed');
    const timeout = Number(one('TimeoutStopSec'));
    expect(timeout).toBe(30);
    expect(timeout).toBeGreaterThan(HttpConfig.parse({}).shutdown_grace_seconds);
  });

  it('is hardened, and leaves V8 its JIT (no MemoryDenyWriteExecute)', () => {
    const expected: Record<string, string> = {
      ProtectSystem: 'strict',
      ProtectHome: 'true',
      NoNewPrivileges: 'true',
      PrivateTmp: 'true',
      PrivateDevices: 'true',
      ProtectKernelTunables: 'true',
      ProtectKernelModules: 'true',
      ProtectKernelLogs: 'true',
      ProtectControlGroups: 'true',
      RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
      RestrictNamespaces: 'true',
      LockPersonality: 'true',
      SystemCallArchitectures: 'native',
      ReadWritePaths: '/var/lib/pipit',
      CapabilityBoundingSet: '',
    };
    for (const [key, value] of Object.entries(expected))
      expect([key, one(key)]).toEqual([key, value]);
    expect(service.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
  const named = (name: string): Instruction[] =>
    stages.find((s) => new RegExp(`\\sAS\\s+${name}$`, 'i').test(s[0]!.args)) ?? [];
  const deps = named('deps');
  const builder = named('builder');
  const runtime = stages.at(-1) ?? [];
  const builderDir = argsOf(deps, 'WORKDIR').at(-1) ?? '';

  it('installs the dependencies from the lock file alone, then builds, then prunes the dev dependencies', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(deps[0]!.args).toMatch(/^node:24-bookworm-slim\s+AS\s+deps$/i);
    expect(builder[0]!.args).toMatch(/^deps\s+AS\s+builder$/i);
    expect(runtime[0]!.args).toBe('node:24-bookworm-slim');
    // The layer cache: nothing but the manifest and the lock file before npm ci, so a source
    // change does not reinstall every dependency.
    const beforeInstall = deps.slice(
      0,
      deps.findIndex((i) => i.keyword === 'RUN'),
    );
    expect(argsOf(beforeInstall, 'COPY')).toEqual(['package.json package-lock.json ./']);
    const install = argsOf(deps, 'RUN').join(' && ');
    expect(install).toMatch(/\bnpm ci\b/);
    // The image has Node.js 24: the `node` package (a second one, 189 MB) must not reach it.
    expect(install).toMatch(/rm -rf node_modules\/node\b/);
    expect(argsOf(builder, 'COPY')).toEqual(['. .']);
    const build = argsOf(builder, 'RUN').join(' && ');
    expect(build).toMatch(/\bnpm run build\b/);
    expect(build).toMatch(/\bnpm run build:web\b/);
    expect(build.indexOf('npm run build')).toBeLessThan(build.indexOf('npm prune --omit=dev'));
    expect(build.slice(build.indexOf('npm prune'))).toMatch(/rm -rf node_modules\/node\b/);
    expect(builderDir).toMatch(/^\//);
  });

  it('runs as a non-root user with a volume, a port, a health check and graceful stop', () => {
    const user = argsOf(runtime, 'USER').at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const userAt = runtime.findIndex((i) => i.keyword === 'USER');
    expect(userAt).toBeLessThan(runtime.findIndex((i) => i.keyword === 'ENTRYPOINT'));
    expect(argsOf(runtime, 'VOLUME')).toEqual(['/var/lib/pipit']);
    expect(argsOf(runtime, 'EXPOSE')).toEqual(['8008']);
    expect(argsOf(runtime, 'STOPSIGNAL')).toEqual(['SIGTERM']);
    expect(JSON.parse(argsOf(runtime, 'ENTRYPOINT')[0]!)).toEqual(['node', 'bin/pipit.js']);
    expect(JSON.parse(argsOf(runtime, 'CMD')[0]!)).toEqual([
      'start',
      '--config',
      '/etc/pipit/config.yaml',
    ]);
    const health = argsOf(runtime, 'HEALTHCHECK')[0] ?? '';
    const cmd = /\bCMD\s+(\[.*\])$/.exec(health);
    expect(cmd).not.toBeNull();
    const argv = JSON.parse(cmd![1]!) as string[];
    expect(argv[0]).toBe('node');
    expect(argv.join(' ')).toContain('http://127.0.0.1:8008/readyz');
  });

  it('ships a default configuration that Pipit accepts, with the workdir on the volume and the exposed port', () => {
    const copies = argsOf(runtime, 'COPY').filter((a) => !a.startsWith('--from='));
    expect(copies).toEqual(['deploy/docker-config.yaml /etc/pipit/config.yaml']);
    const config = loadConfig({ path: DOCKER_CONFIG, plugins: builtinPlugins, env: {} });
    expect(config.workdir).toBe('/var/lib/pipit');
    expect(config.http?.port).toBe(8008);
    expect(config.http?.bind_address).toBe('0.0.0.0');
  });

  it('copies into the runtime stage exactly what scripts/docker-steps.sh assembles', async () => {
    const fromBuilder = argsOf(runtime, 'COPY')
      .filter((a) => a.startsWith('--from=builder '))
      .map((a) => {
        const [, src, dest] = a.split(/\s+/);
        expect(src!.startsWith(`${builderDir}/`)).toBe(true);
        const path = src!.slice(builderDir.length + 1);
        // The same layout as the checkout: the script copies builder/<path> to runtime/<path>.
        expect(dest).toBe(`./${path}`);
        return `builder ${path}`;
      });
    const fromContext = argsOf(runtime, 'COPY')
      .filter((a) => !a.startsWith('--from='))
      .map((a) => `context ${a}`);
    const listed = await capture('bash', [DOCKER_STEPS, '--list-copies']);
    expect(listed.code).toBe(0);
    expect(listed.output.trim().split('\n')).toEqual([...fromBuilder, ...fromContext]);
    expect(fromBuilder).toEqual(
      expect.arrayContaining(['builder package.json', 'builder node_modules', 'builder dist']),
    );
  });

  it('keeps host builds, modules and the repository out of the build context', () => {
    const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(patterns).toEqual(expect.arrayContaining(['.git', 'node_modules', 'dist', 'web/dist']));
    // What the build needs is never excluded (the end-to-end run below builds from it).
    for (const needed of [
      'package.json',
      'package-lock.json',
      'scripts',
      'src',
      'web',
      'bin',
      'deploy',
    ])
      expect(patterns).not.toContain(needed);
  });
});

// scripts/docker-steps.sh itself (npm ci, prune, start as nobody, health check, SIGTERM) runs as its
// own step of .ci/run, after the test suite: its npm ci would compete with timing-sensitive tests.
