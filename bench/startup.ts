// `node bench/startup.ts`: how long `pipit start` takes to answer its first request, and its
// resident memory once idle. Each run spawns `bin/pipit.js start` on a temporary config and workdir
// (made by a first, unmeasured start: the runs are restarts, as after an upgrade or a reboot), polls
// GET /healthz until it answers 200 (time from spawn), waits BENCH_IDLE_SECONDS (default 2) and
// reads VmRSS from /proc/<pid>/status. Alternated with a bare fastify server answering /healthz,
// started the same way on the same Node, for scale: on a shared machine the absolute times move
// with the load, the difference less so. Median and range over BENCH_STARTUP_RUNS runs (default
// 5, at least 3). Goals: <= 0.4 s and <= 90 MB.
//
// What runs is the built code, as installed: the launcher runs the sources whenever src/ is newer
// than dist/ (always, in a tree being edited), and type-stripping every module at load costs
// seconds. So the sources are compiled and bundled into a private copy first, as `npm run build`
// does (bin/, dist/, package.json, and links to node_modules and web/dist), without touching the
// checkout's dist/.
//
// Options: BENCH_STARTUP_YAML adds YAML to the generated config (e.g. a plugin section);
// BENCH_STARTUP_ENTRY=checkout runs the checkout's bin/pipit.js as it is instead.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMillis } from './cpu.ts';
import { median } from './lib.ts';

/** One start-up's figures. */
export interface StartupRun {
  /** Spawn to the first 200 from /healthz. */
  readyMs: number;
  /**
   * CPU time the process used until then: steadier than the wall time on a shared machine, where
   * other processes take turns on the cores.
   */
  cpuMs: number;
  /** Resident set after idling. */
  rssMb: number;
}

const ROOT = join(import.meta.dirname, '..');

/**
 * Compiles the sources into a private copy of the package and returns its root (remove it after).
 *
 * @example
 * const root = buildCopy();
 */
export function buildCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'pipit-build-'));
  const tsc = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      join(root, 'dist'),
      '--declaration',
      'false',
      '--sourceMap',
      'false',
    ],
    { encoding: 'utf8' },
  );
  // Type errors in work in progress elsewhere do not stop the emit; a missing entry point does.
  if (!existsSync(join(root, 'dist/cli/main.js')))
    throw new Error(`the build failed:\n${tsc.stdout}${tsc.stderr}`);
  mkdirSync(join(root, 'bin'));
  copyFileSync(join(ROOT, 'bin/pipit.js'), join(root, 'bin/pipit.js'));
  copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  // The rest of `npm run build` (it resolves the dependencies: after the link above).
  const bundler = [join(ROOT, 'scripts/bundle.js'), join(root, 'dist')];
  const bundle = spawnSync(process.execPath, bundler, { encoding: 'utf8' });
  if (bundle.status !== 0) throw new Error(`the bundle failed:\n${bundle.stdout}${bundle.stderr}`);
  mkdirSync(join(root, 'web'));
  if (existsSync(join(ROOT, 'web/dist')))
    symlinkSync(join(ROOT, 'web/dist'), join(root, 'web/dist'));
  return root;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns `node <args>` in `cwd`, waits for `http://127.0.0.1:<port>/healthz` to answer 200, idles,
 * measures, and stops it.
 *
 * @example
 * const run = await measureStart(['server.mjs'], dir, port, 2);
 */
export async function measureStart(
  args: string[],
  cwd: string,
  port: number,
  idleSeconds: number,
): Promise<StartupRun> {
  let stderr = '';
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}):\n${stderr}`);
      if (performance.now() - started > 20_000) throw new Error(`no answer in 20 s:\n${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(5);
    }
    const readyMs = performance.now() - started;
    const cpuMs = cpuMillis(child.pid!);
    await sleep(idleSeconds * 1000);
    return { readyMs, cpuMs, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/**
 * The anchor of the start-up figures: a bare fastify server (this checkout's) answering
 * `GET /healthz` on `port`, as an ES module's source.
 *
 * @example
 * writeFileSync(join(dir, 'bare.mjs'), bareServerSource(8008));
 */
export function bareServerSource(port: number): string {
  return `import Fastify from ${JSON.stringify(join(ROOT, 'node_modules/fastify/fastify.js'))};\nconst app = Fastify();\napp.get('/healthz', async () => ({ status: 'ok' }));\nawait app.listen({ port: ${port}, host: '127.0.0.1' });\n`;
}

interface Summary {
  readyMs: number;
  cpuMs: number;
  rssMb: number;
}

const summarize = (runs: StartupRun[]): Summary => ({
  readyMs: median(runs.map((r) => r.readyMs)),
  cpuMs: median(runs.map((r) => r.cpuMs)),
  rssMb: median(runs.map((r) => r.rssMb)),
});

/**
 * Starts Pipit (and the bare fastify server) `runs` times, alternated, and prints medians and
 * ranges.
 *
 * @example
 * await benchStartup({ runs: 5, idleSeconds: 2, root: buildCopy() });
 */
export async function benchStartup(opts: {
  runs: number;
  idleSeconds: number;
  yaml?: string;
  root?: string;
}): Promise<{ pipit: Summary; bare: Summary; runs: { pipit: StartupRun[]; bare: StartupRun[] } }> {
  const dir = mkdtempSync(join(tmpdir(), 'pipit-startup-'));
  const port = await freePort();
  writeFileSync(
    join(dir, 'config.yaml'),
    `device_id: startup\nworkdir: ./data\nlogging: {level: warn}\nbackend.http:\n  port: ${port}\n  bind_address: 127.0.0.1\n${opts.yaml ?? ''}`,
  );
  writeFileSync(join(dir, 'bare.mjs'), bareServerSource(port));
  const pipitArgs = [join(opts.root ?? ROOT, 'bin/pipit.js'), 'start', '--config', 'config.yaml'];
  try {
    // The first start creates the database and the JWT secret; it and a bare one warm the caches.
    await measureStart(pipitArgs, dir, port, 0);
    await measureStart(['bare.mjs'], dir, port, 0);
    const runs = { pipit: [] as StartupRun[], bare: [] as StartupRun[] };
    for (let i = 0; i < Math.max(3, opts.runs); i++) {
      runs.bare.push(await measureStart(['bare.mjs'], dir, port, opts.idleSeconds));
      runs.pipit.push(await measureStart(pipitArgs, dir, port, opts.idleSeconds));
    }
    const result = { pipit: summarize(runs.pipit), bare: summarize(runs.bare), runs };
    const range = (list: StartupRun[], key: keyof StartupRun, digits = 0) =>
      `${Math.min(...list.map((r) => r[key])).toFixed(digits)}–${Math.max(...list.map((r) => r[key])).toFixed(digits)}`;
    console.log(
      `\n## pipit start: spawn to the first answered request, idle RSS (${runs.pipit.length} restarts, alternated with a bare fastify server)`,
    );
    for (const [who, list, s] of [
      ['pipit start', runs.pipit, result.pipit],
      ['bare fastify', runs.bare, result.bare],
    ] as const) {
      console.log(
        `${who.padEnd(14)} ready ${s.readyMs.toFixed(0).padStart(5)} ms (${range(list, 'readyMs')})   CPU ${s.cpuMs.toFixed(0).padStart(5)} ms (${range(list, 'cpuMs')})   RSS ${s.rssMb.toFixed(1)} MB (${range(list, 'rssMb', 1)})`,
      );
    }
    console.log('goals: ready <= 400 ms, RSS <= 90 MB');
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const root = process.env.BENCH_STARTUP_ENTRY === 'checkout' ? undefined : buildCopy();
  if (root) console.log(`(compiled the sources into ${root})`);
  try {
    await benchStartup({
      runs: Number(process.env.BENCH_STARTUP_RUNS ?? 5),
      idleSeconds: Number(process.env.BENCH_IDLE_SECONDS ?? 2),
      ...(process.env.BENCH_STARTUP_YAML ? { yaml: `${process.env.BENCH_STARTUP_YAML}\n` } : {}),
      ...(root ? { root } : {}),
    });
  } finally {
    if (root) rmSync(root, { recursive: true, force: true });
  }
}
