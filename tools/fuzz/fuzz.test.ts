// Property-based fuzzing of POST /execute, /ws/requests, /ws/events and /hook/<name> against a real
// `pipit start` process (tools/fuzz/harness.ts). Bounded for CI: PIPIT_FUZZ_RUNS inputs per endpoint
// (default 600); PIPIT_FUZZ_SEED replays a run. `npm run fuzz` runs 100,000 inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, formatFailures, FuzzServer, fuzzEndpoint, shrinkFailures } from './harness.ts';
import type { EndpointReport } from './harness.ts';
import type { ChildMemory } from './pipit-child.ts';

const RUNS = Number(process.env.PIPIT_FUZZ_RUNS ?? 600);
const SEED = Number(process.env.PIPIT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const HEAP_BOUND = 50 * 1024 * 1024;
// Shrinking failures (each a replay alone, a crash a restart) shares one budget across endpoints.
const SHRINK_BUDGET_MS = 30_000;
const specs = endpoints(4);

describe('fuzz: hostile inputs on every transport, a real process', () => {
  let server: FuzzServer;
  let baseline: ChildMemory;
  const reports: EndpointReport[] = [];
  let shrinkLeft = SHRINK_BUDGET_MS;

  beforeAll(async () => {
    server = await FuzzServer.start();
    // Warm-up: the baseline then holds the code and caches that every later input uses too.
    for (const spec of specs) await fuzzEndpoint(server, spec, { runs: 40, seed: SEED ^ 0x5eed });
    baseline = await server.memory();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  for (const spec of specs) {
    it(`${spec.name}: every input gets a documented answer`, async () => {
      const report = await fuzzEndpoint(server, spec, { runs: RUNS, seed: SEED });
      reports.push(report);
      expect(report.inputs).toBe(RUNS);
      let failures = '';
      if (report.bySignature.size || report.downs.length) {
        const started = Date.now();
        const shrunk =
          shrinkLeft > 1_000
            ? await shrinkFailures(server, specs, [report], {
                maxSignatures: 3,
                timeLimitMs: Math.min(10_000, shrinkLeft / 3),
              })
            : [];
        shrinkLeft -= Date.now() - started;
        failures = formatFailures([report], shrunk);
      }
      expect(failures, `${RUNS} inputs; replay with PIPIT_FUZZ_SEED=${SEED}`).toBe('');
    }, 180_000);
  }

  it('the process stays up: no crash or hang, and a known-good request is answered', async () => {
    expect(reports.length).toBe(specs.length);
    expect(server.failures, `replay with PIPIT_FUZZ_SEED=${SEED}`).toEqual([]);
    expect(server.pipit.alive()).toBe(true);
    expect(await server.knownGood()).toBeUndefined();
  });

  it('the heap returns to its baseline after the run and a forced GC (+50 MB at most)', async (ctx) => {
    if (server.restarts) ctx.skip(`the server crashed and was restarted ${server.restarts} times`);
    const after = await server.memory();
    expect(after.heapUsed - baseline.heapUsed).toBeLessThan(HEAP_BOUND);
  });
});
