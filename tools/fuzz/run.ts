// `npm run fuzz [-- --inputs 100000 --concurrency 8 --seed 1234 --shrink 8]`: the long fuzz run.
// Same generators and judges as fuzz.test.ts, many more inputs: prints the answers by status per
// endpoint and in total, the heap of the server before and after (after forced GCs), and every
// kind of failure with a minimal input. Exits 1 when any property failed.
import { parseArgs } from 'node:util';
import {
  describeInput,
  endpoints,
  formatCounts,
  formatFailures,
  FuzzServer,
  fuzzEndpoint,
  shrinkFailures,
} from './harness.ts';
import type { EndpointReport } from './harness.ts';

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: process.env.PIPIT_FUZZ_RUNS ?? '100000' },
    concurrency: { type: 'string', default: '8' },
    seed: { type: 'string', default: process.env.PIPIT_FUZZ_SEED ?? String(Date.now() % 2 ** 31) },
    shrink: { type: 'string', default: '10' },
    'heap-mb': { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
const total = Number(values.inputs);
const concurrency = Number(values.concurrency);
const seed = Number(values.seed);
const heapBoundMb = Number(values['heap-mb']);
// The endpoints share the inputs; /ws/events runs one stream (events fan out to every socket).
const SHARE = { execute: 0.3, 'ws-requests': 0.3, 'ws-events': 0.15, hook: 0.25 } as const;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const specs = endpoints(concurrency).filter(
  (s) => !values.only || values.only.split(',').includes(s.name),
);
const shareSum = specs.reduce((n, s) => n + SHARE[s.name], 0);

console.log(`pipit fuzz: ${total} inputs, ${concurrency} concurrent streams, seed ${seed}`);
const server = await FuzzServer.start();
let failed = false;
try {
  console.log(
    `server pid ${server.pipit.pid} on ${server.pipit.url} (workdir ${server.pipit.dir})`,
  );
  // Warm-up, so that the baseline includes the code and caches any run needs.
  for (const spec of specs) await fuzzEndpoint(server, spec, { runs: 200, seed: seed ^ 0x5eed });
  const restartsBefore = server.restarts;
  const before = await server.memory();
  console.log(`heap after warm-up and GC: ${mb(before.heapUsed)} (rss ${mb(before.rss)})\n`);

  const reports: EndpointReport[] = [];
  for (const spec of specs) {
    const runs = Math.round((total * SHARE[spec.name]) / shareSum);
    let last = Date.now();
    const report = await fuzzEndpoint(server, spec, {
      runs,
      seed,
      onProgress: (done) => {
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        console.log(`  ${spec.name}: ${done}/${runs}…`);
      },
    });
    reports.push(report);
    const bad = [...report.bySignature.values()].reduce((n, e) => n + e.count, 0);
    console.log(
      `${spec.name}: ${report.inputs} inputs in ${(report.ms / 1000).toFixed(1)} s (${Math.round(report.inputs / (report.ms / 1000))}/s), ${bad} failing`,
    );
    console.log(formatCounts(report));
  }

  const totals: Record<string, number> = {};
  for (const r of reports)
    for (const [status, n] of Object.entries(r.counts)) totals[status] = (totals[status] ?? 0) + n;
  const sum = reports.reduce((n, r) => n + r.inputs, 0);
  console.log(`\ntotal: ${sum} inputs`);
  console.log(
    Object.entries(totals)
      .sort((a, b) => b[1] - a[1])
      .map(([status, n]) => `    ${status.padEnd(36)} ${String(n).padStart(8)}`)
      .join('\n'),
  );

  const up = await server.knownGood();
  console.log(`\nprocess up at the end: ${up === undefined ? 'yes' : `NO (${up})`}`);
  console.log(`crashes or hangs (each followed by a restart): ${server.failures.length}`);
  for (const f of server.failures.slice(0, 10)) console.log(`    ${f}`);
  if (up !== undefined || server.failures.length) failed = true;

  if (server.restarts === restartsBefore) {
    const after = await server.memory();
    const growth = after.heapUsed - before.heapUsed;
    const ok = growth <= heapBoundMb * 1024 * 1024;
    console.log(
      `heap after the run and GC: ${mb(after.heapUsed)} (rss ${mb(after.rss)}), growth ${mb(growth)} (bound ${heapBoundMb} MB): ${ok ? 'ok' : 'TOO MUCH'}`,
    );
    if (!ok) failed = true;
  } else {
    console.log('heap: not compared (the server was restarted during the run)');
  }

  const signatures = reports.reduce((n, r) => n + r.bySignature.size, 0);
  if (signatures) {
    failed = true;
    console.log(`\n${signatures} kinds of failure; shrinking up to ${values.shrink}…`);
    const shrunk = await shrinkFailures(server, specs, reports, {
      maxSignatures: Number(values.shrink),
      timeLimitMs: 60_000,
    });
    console.log(formatFailures(reports, shrunk));
    const minimal = shrunk.filter((s) => s.reproduced);
    if (minimal.length) {
      console.log('\nminimal failing inputs:');
      for (const s of minimal) console.log(`  ${s.signature}: ${describeInput(s.input!)}`);
    }
  }
  console.log(`\n${failed ? 'FAILED' : 'passed'} (seed ${seed}: rerun with --seed ${seed})`);
} finally {
  await server.close();
}
process.exit(failed ? 1 : 0);
