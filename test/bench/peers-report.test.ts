// The pure parts of `npm run bench:peers`: medians and ratios, the goals' verdicts, the markdown
// table, and the hook forms generated from one reply spec.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { Measured } from '../../bench/ab.ts';
import {
  BENCH_HOOK_REPLY,
  nodeRedReplyFunction,
  PEER_HOOK_BODY,
  PEER_HOOK_REPLY,
  scriptHookSource,
  yamlHookSource,
} from '../../bench/hook-config.ts';
import type { MemoryRun } from '../../bench/peers-memory.ts';
import { peersOptions } from '../../bench/peers-options.ts';
import {
  goalLines,
  judge,
  markdownTable,
  ratios,
  stat,
  statText,
} from '../../bench/peers-report.ts';
import { HEAD, LEGS, NAMES, summarize } from '../../bench/peers-summary.ts';

const leg = (rps: number, p99: number): Measured => ({
  rps,
  p50: p99 / 4,
  p99,
  errors: 0,
  cpu: {},
  generator: 'wrk',
});
const memory = (idle: number, loaded: number, recovered: number): MemoryRun => ({
  rssMb: { start: idle, idle, loaded, recovered },
  peakMb: loaded,
  load: leg(1000, 10),
});

describe('peers report helpers', () => {
  it('takes medians with their range, and per-round ratios', () => {
    expect(stat([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(stat([]).n).toBe(0);
    expect(ratios([10, 12], [2, 3])).toEqual([5, 4]);
    expect(statText(stat([2, 1, 3]), 1, '×')).toBe('2.0× (1.0–3.0)');
    expect(statText(stat([2]), 0)).toBe('2');
  });

  it('judges goals both ways and prints PASS or MISS', () => {
    expect(goalLines([judge('fast', 7, '>=', 6), judge('small', 1.3, '<=', 1.2)])).toEqual([
      'PASS  fast: 7.00× (goal ≥ 6×)',
      'MISS  small: 1.30× (goal ≤ 1.2×)',
    ]);
  });

  it('prints a markdown table', () => {
    expect(markdownTable(['Figure', 'a'], [['x', '1']])).toBe(
      '| Figure | a |\n|---|---|\n| x | 1 |',
    );
  });

  it('summarizes rounds into rows and goals', () => {
    const { rows, goals } = summarize({
      throughput: {
        [LEGS.nodeRedHook]: [leg(1000, 80), leg(1200, 60)],
        [LEGS.yamlHook]: [leg(7000, 8), leg(6000, 10)],
        [LEGS.scriptHook]: [leg(4000, 12), leg(6000, 10)],
      },
      startup: {
        [NAMES.fastify]: [{ readyMs: 200, cpuMs: 150 }],
        [NAMES.nodeRed]: [{ readyMs: 1000, cpuMs: 900 }],
        [NAMES.yaml]: [{ readyMs: 220, cpuMs: 200 }],
        [NAMES.script]: [{ readyMs: 260, cpuMs: 230 }],
      },
      memory: {
        [NAMES.nodeRed]: [memory(140, 300, 120)],
        [NAMES.yaml]: [memory(100, 160, 125)],
        [NAMES.script]: [memory(105, 190, 120)],
      },
    });
    const verdict = Object.fromEntries(goals.map((g) => [g.label, [g.value, g.pass]]));
    // Per-round ratios 7 and 5: median 6.
    expect(verdict['hook throughput, Pipit YAML / Node-RED']).toEqual([6, true]);
    expect(verdict['hook throughput, Pipit script / Node-RED']).toEqual([4.5, false]);
    expect(verdict['hook p99, Node-RED / Pipit YAML (Pipit ≤ 1/8 of Node-RED)']).toEqual([8, true]);
    expect(verdict['start-up, Pipit YAML / fastify']).toEqual([1.1, true]);
    expect(verdict['start-up, Pipit script / fastify']![1]).toBe(false);
    expect(verdict['start-up, Pipit YAML / Node-RED']).toEqual([0.22, true]);
    expect(verdict['idle RSS, Pipit YAML / Node-RED']![1]).toBe(true);
    expect(verdict['RSS after load, Pipit script / Node-RED']![1]).toBe(true);
    expect(verdict['RSS back within 20% of idle, Pipit YAML (recovered / idle)']).toEqual([
      1.25,
      false,
    ]);
    expect(rows.every((r) => r.length === HEAD.length)).toBe(true);
    expect(rows[0]).toEqual([
      '`POST /hook/bench` req/s',
      '1100 (1000–1200)',
      '6500 (6000–7000)',
      '5000 (4000–6000)',
      '6.00× (5.00–7.00); 4.50× (4.00–5.00)',
      '≥ 6×',
    ]);
  });

  it('reads --quick as 5 s legs, loads and idles and one round', () => {
    const quick = peersOptions(['--quick']);
    expect([quick.rounds, quick.seconds, quick.memory]).toEqual([
      1,
      5,
      { idle: 5, load: 5, recover: 5 },
    ]);
    expect(peersOptions([]).memory).toEqual({ idle: 60, load: 60, recover: 60 });
    expect(() => peersOptions(['--only', 'speed'])).toThrow(/parts are/);
  });
});

describe('hook forms from one reply spec', () => {
  it("keeps npm run bench's script hook as it was", () => {
    expect(scriptHookSource('bench', BENCH_HOOK_REPLY)).toBe(
      "import { hook } from 'pipit';\nhook('WebhookEvent', { hook: \"bench\" }, (e) => ({ ok: true, method: e.method }));\n",
    );
  });

  it('builds the same reply in Node-RED as the YAML and script hooks describe', () => {
    const msg = { payload: JSON.parse(PEER_HOOK_BODY) as unknown, req: { method: 'POST' } };
    const out = runInNewContext(
      `(function (msg) {\n${nodeRedReplyFunction(PEER_HOOK_REPLY)}\n})(msg)`,
      {
        msg,
      },
    ) as { payload: unknown };
    expect(out.payload).toEqual({ ok: true, method: 'POST', device: 'door', value: 21.5 });
    expect(yamlHookSource('bench', PEER_HOOK_REPLY)).toContain('        device: ${data.device}');
    expect(scriptHookSource('bench', PEER_HOOK_REPLY)).toContain('device: e.data.device');
  });
});
