// `npm run bench:peers`: Pipit against the tool a user would pick instead, Node-RED, on the same web
// hook and the same `/execute` call, and Pipit's memory over a life of idle, load and idle again.
// Node-RED (node-red@4) is installed once into ${XDG_CACHE_HOME:-~/.cache}/pipit-bench/node-red,
// never into the project's dependencies. Pipit runs as installed: `pipit start` of a private build
// of the sources (bench/startup.ts's buildCopy; BENCH_PIPIT_ROOT=<a built copy> reuses one). wrk
// and this process run on core 0, the servers on core 1. `--quick` is a smoke run; `--help` lists
// the options. Prints each leg, a markdown table for docs/benchmarks.md and each goal's PASS/MISS,
// and writes the figures to bench/results/peers-<time>.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapProbe } from './heap-probe.ts';
import { PEER_HOOK_BODY } from './hook-config.ts';
import { ensureNodeRed, nodeRedArgs } from './node-red.ts';
import { preparePipit } from './peer-pipit.ts';
import { freePort, startServer } from './peer-process.ts';
import type { RunningServer, ServerSpec } from './peer-process.ts';
import { LOAD_CPU, requireWrk, SERVER_CPU } from './peers-load.ts';
import { heapLine, memoryRun } from './peers-memory.ts';
import type { MemoryRun } from './peers-memory.ts';
import { peersOptions } from './peers-options.ts';
import { EXECUTE_BODY, preflight, startupRounds, throughputRounds } from './peers-phases.ts';
import type { PeerLeg } from './peers-phases.ts';
import { goalLines, markdownTable } from './peers-report.ts';
import { HEAD, LEGS, NAMES, summarize } from './peers-summary.ts';
import type { PeersResults } from './peers-summary.ts';
import { bareServerSource, buildCopy } from './startup.ts';

const opts = peersOptions(process.argv.slice(2));
requireWrk();
// This process polls and samples: on wrk's core, away from the servers'.
if (spawnSync('taskset', ['-a', '-p', '-c', String(LOAD_CPU), String(process.pid)]).status !== 0)
  console.warn('taskset failed: nothing is pinned, so the figures mix the servers with wrk');

const nodeRed = ensureNodeRed();
const builtRoot = process.env.BENCH_PIPIT_ROOT;
const root = builtRoot ?? buildCopy();
const temp: string[] = builtRoot ? [] : [root];
const running: RunningServer[] = [];
const hookProbe = { path: '/hook/bench', method: 'POST' as const, body: PEER_HOOK_BODY };

try {
  console.log(
    `Node-RED ${nodeRed.version} (${nodeRed.redJs}); Pipit from ${root}; Node ${process.version}`,
  );
  const nodeRedDir = mkdtempSync(join(tmpdir(), 'pipit-peers-node-red-'));
  const anchorDir = mkdtempSync(join(tmpdir(), 'pipit-peers-fastify-'));
  temp.push(nodeRedDir, anchorDir);
  const nodeRedPort = await freePort();
  const yaml = preparePipit(root, 'yaml', await freePort());
  const script = preparePipit(root, 'script', await freePort());
  temp.push(yaml.dir, script.dir);
  const anchorPort = await freePort();
  writeFileSync(join(anchorDir, 'bare.mjs'), bareServerSource(anchorPort));
  const specs: Record<'nodeRed' | 'yaml' | 'script' | 'fastify', ServerSpec> = {
    nodeRed: {
      name: NAMES.nodeRed,
      args: nodeRedArgs(nodeRed.redJs, nodeRedDir, nodeRedPort),
      cwd: nodeRedDir,
      port: nodeRedPort,
      probe: hookProbe,
    },
    yaml: { name: NAMES.yaml, args: yaml.args, cwd: yaml.dir, port: yaml.port, probe: hookProbe },
    script: {
      name: NAMES.script,
      args: script.args,
      cwd: script.dir,
      port: script.port,
      probe: hookProbe,
    },
    fastify: {
      name: NAMES.fastify,
      args: ['bare.mjs'],
      cwd: anchorDir,
      port: anchorPort,
      probe: { path: '/healthz', method: 'GET' },
    },
  };
  const results: PeersResults = {};

  if (opts.parts.has('throughput')) {
    const [nr, py, ps] = [
      await startServer(specs.nodeRed, SERVER_CPU),
      await startServer(specs.yaml, SERVER_CPU),
      await startServer(specs.script, SERVER_CPU),
    ];
    running.push(nr, py, ps);
    const hook = (label: string, server: RunningServer): PeerLeg => ({
      label,
      server,
      path: '/hook/bench',
      body: PEER_HOOK_BODY,
    });
    const hooks = [hook(LEGS.nodeRedHook, nr), hook(LEGS.yamlHook, py), hook(LEGS.scriptHook, ps)];
    const executes: PeerLeg[] = [
      { label: LEGS.nodeRedExecute, server: nr, path: '/execute', body: EXECUTE_BODY },
      {
        label: LEGS.pipitExecute,
        server: py,
        path: '/execute',
        body: EXECUTE_BODY,
        headers: { authorization: `Bearer ${yaml.token}` },
      },
    ];
    await preflight([hooks, executes]);
    results.throughput = await throughputRounds([...hooks, ...executes], {
      rounds: opts.rounds,
      seconds: opts.seconds,
      connections: opts.connections,
      warmup: Math.min(3, opts.seconds),
    });
    for (const server of running.splice(0)) await server.stop();
  }

  if (opts.parts.has('startup'))
    results.startup = await startupRounds(
      [specs.fastify, specs.nodeRed, specs.yaml, specs.script],
      opts.startupRounds,
    );

  if (opts.parts.has('memory')) {
    const { idle, load, recover } = opts.memory;
    console.log(
      `\n## Memory: RSS 1 s after the first answer, ${idle} s after it (idle), right after ${load} s of hook load, ${recover} s after the load`,
    );
    if (recover < 20)
      console.log(
        `  (Pipit gives memory back after 10 s of quiet, checked every second: a recovery of ${recover} s may end before it)`,
      );
    results.memory = {};
    for (const spec of [specs.nodeRed, specs.yaml, specs.script]) {
      const probe = opts.heapSpaces
        ? writeHeapProbe(mkdtempSync(join(tmpdir(), 'pipit-heap-')))
        : undefined;
      if (probe) temp.push(join(probe.file, '..'));
      const probed: ServerSpec = probe
        ? { ...spec, nodeOptions: probe.nodeOptions, env: probe.env }
        : spec;
      const run: MemoryRun = await memoryRun(
        probed,
        {
          url: `http://127.0.0.1:${spec.port}/hook/bench`,
          method: 'POST',
          body: PEER_HOOK_BODY,
          connections: opts.connections,
        },
        { idle, load, recover },
        probe?.file,
      );
      results.memory[spec.name] = [run];
      const r = run.rssMb;
      console.log(
        `  ${spec.name.padEnd(14)} RSS ${r.start.toFixed(1)} → idle ${r.idle.toFixed(1)} → loaded ${r.loaded.toFixed(1)} → recovered ${r.recovered.toFixed(1)} MB (peak ${run.peakMb.toFixed(1)}); load ${run.load.rps.toFixed(0)} req/s, wrk ${((run.load.cpu.generator ?? NaN) * 100).toFixed(0)}%`,
      );
      if (run.heap)
        for (const [checkpoint, sample] of Object.entries(run.heap))
          console.log(`    ${checkpoint.padEnd(10)} ${heapLine(sample)}`);
    }
  }

  const { rows, goals } = summarize(results);
  console.log(
    `\n## For docs/benchmarks.md (medians, spread min–max; ${opts.rounds} throughput rounds of ${opts.seconds} s, ${opts.connections} connections; ${opts.startupRounds} start-up rounds; memory ${opts.memory.idle}/${opts.memory.load}/${opts.memory.recover} s; Node-RED ${nodeRed.version})\n`,
  );
  console.log(markdownTable(HEAD, rows));
  console.log('\n## Goals');
  for (const line of goalLines(goals)) console.log(line);
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `peers-${Date.now()}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        nodeRed: nodeRed.version,
        opts: { ...opts, parts: [...opts.parts] },
        results,
        goals,
      },
      null,
      2,
    ),
  );
  console.log(`\nresults written to ${file}`);
} finally {
  for (const server of running) await server.stop();
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
}
