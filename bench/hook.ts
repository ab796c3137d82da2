import { join } from 'node:path';
import { abCompare } from './ab.ts';
import type { Comparison, Spread } from './ab.ts';
import { loadHttp } from './http-load.ts';
import { median, spawnTarget, stopTarget } from './lib.ts';

/** The web-hook comparison, with the floor that recording every run puts under it. */
export interface HookComparison extends Comparison {
  /**
   * The bare route plus the event and the recorded run (what issue 14 requires of every web hook),
   * over the bare route, per pair: no web hook that records its runs can read above it.
   */
  floor: Spread & { ratios: number[] };
}

/**
 * `GET /hook/bench` with a script listener against a bare fastify route answering the same JSON,
 * A/B/A/B in one run; after each pair, the floor (see {@link HookComparison.floor}).
 *
 * @example
 * await benchHook({ seconds: 3, pairs: 3, connections: 50 });
 */
export async function benchHook(opts: {
  seconds: number;
  pairs: number;
  connections: number;
}): Promise<HookComparison> {
  const { child, info } = await spawnTarget<{ pipitUrl: string; bareUrl: string }>(
    join(import.meta.dirname, 'targets.ts'),
    0,
  );
  try {
    const leg = (label: string, url: string) => ({
      label,
      run: (seconds: number) =>
        loadHttp({ url, method: 'GET', seconds, connections: opts.connections }, child.pid!),
    });
    const baseline = leg('bare fastify route', `${info.bareUrl}/bare-hook`);
    const floorLeg = leg('bare route + event + recorded run', `${info.bareUrl}/bare-hook-recorded`);
    const result = await abCompare({
      title: 'GET /hook/<name> (script listener) vs a bare fastify route',
      metric: 'rps',
      pairs: opts.pairs,
      seconds: opts.seconds,
      goal: 0.8,
      baseline,
      subject: leg('pipit /hook/bench', `${info.pipitUrl}/hook/bench`),
      references: [floorLeg],
    });
    const bare = result.legs[baseline.label]!;
    const ratios = result.legs[floorLeg.label]!.map((m, i) => m.rps / bare[i]!.rps);
    const floor = { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
    console.log(
      `floor (bare route + the event and recorded run each web hook needs) / bare: median ${floor.median.toFixed(2)} (spread ${floor.min.toFixed(2)}–${floor.max.toFixed(2)})` +
        (floor.median < 0.8 ? ': below the goal of 0.8 before any of the route runs' : ''),
    );
    return { ...result, floor: { ...floor, ratios } };
  } finally {
    await stopTarget(child);
  }
}
