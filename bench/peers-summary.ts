// `npm run bench:peers`'s results turned into the table and the goals it prints.
import type { Measured } from './ab.ts';
import type { MemoryRun } from './peers-memory.ts';
import type { StartRun } from './peers-phases.ts';
import { judge, ratios, stat, statText } from './peers-report.ts';
import type { GoalResult, Row, Stat } from './peers-report.ts';

/** The servers' names, as the results key them. */
export const NAMES = {
  nodeRed: 'Node-RED',
  yaml: 'Pipit YAML',
  script: 'Pipit script',
  fastify: 'fastify',
} as const;

/** The throughput legs' labels. */
export const LEGS = {
  nodeRedHook: 'Node-RED hook',
  yamlHook: 'Pipit YAML hook',
  scriptHook: 'Pipit script hook',
  nodeRedExecute: 'Node-RED /execute',
  pipitExecute: 'Pipit /execute',
} as const;

/** Everything one run of `npm run bench:peers` measured (the parts it ran). */
export interface PeersResults {
  throughput?: Record<string, Measured[]>;
  startup?: Record<string, StartRun[]>;
  memory?: Record<string, MemoryRun[]>;
}

/** The markdown table's head. */
export const HEAD = [
  'Figure',
  'Node-RED',
  'Pipit, YAML hook',
  'Pipit, script hook',
  'Pipit / Node-RED (YAML; script)',
  'Goal',
];

type Series = (name: string) => number[];
const ratioText = (s: Stat) => (s.n ? statText(s, 2, '×') : '—');

/**
 * The rows of the markdown table and the goals judged, from whatever parts were measured.
 *
 * @example
 * const { rows, goals } = summarize(results);
 * console.log(markdownTable(HEAD, rows));
 */
export function summarize(r: PeersResults): { rows: Row[]; goals: GoalResult[] } {
  const rows: Row[] = [];
  const goals: GoalResult[] = [];
  const pipits = [
    ['YAML', NAMES.yaml],
    ['script', NAMES.script],
  ] as const;

  if (r.throughput) {
    const legs = r.throughput;
    const of = (label: string, f: (m: Measured) => number) => (legs[label] ?? []).map(f);
    const hookOf: Record<string, string> = {
      [NAMES.nodeRed]: LEGS.nodeRedHook,
      [NAMES.yaml]: LEGS.yamlHook,
      [NAMES.script]: LEGS.scriptHook,
    };
    for (const [what, f, digits, higherBetter] of [
      ['req/s', (m: Measured) => m.rps, 0, true],
      ['p50 ms', (m: Measured) => m.p50, 2, false],
      ['p99 ms', (m: Measured) => m.p99, 2, false],
    ] as const) {
      const series: Series = (name) => of(hookOf[name]!, f);
      const nr = series(NAMES.nodeRed);
      // Throughput as Pipit / Node-RED; latency as Node-RED / Pipit: both read "n times better".
      const per = pipits.map(([, name]) =>
        stat(higherBetter ? ratios(series(name), nr) : ratios(nr, series(name))),
      );
      const goal = what === 'req/s' ? '≥ 6×' : what === 'p99 ms' ? 'Node-RED ≥ 8× Pipit' : '';
      rows.push([
        `\`POST /hook/bench\` ${what}`,
        statText(stat(nr), digits),
        ...pipits.map(([, name]) => statText(stat(series(name)), digits)),
        `${ratioText(per[0]!)}; ${ratioText(per[1]!)}${higherBetter ? '' : ' (Node-RED / Pipit)'}`,
        goal,
      ]);
      if (what !== 'p50 ms')
        pipits.forEach(([form], i) =>
          goals.push(
            what === 'req/s'
              ? judge(`hook throughput, Pipit ${form} / Node-RED`, per[i]!.median, '>=', 6)
              : judge(
                  `hook p99, Node-RED / Pipit ${form} (Pipit ≤ 1/8 of Node-RED)`,
                  per[i]!.median,
                  '>=',
                  8,
                ),
          ),
        );
    }
    for (const [what, f, digits] of [
      ['req/s', (m: Measured) => m.rps, 0],
      ['p99 ms', (m: Measured) => m.p99, 2],
    ] as const) {
      const nr = of(LEGS.nodeRedExecute, f);
      const pipit = of(LEGS.pipitExecute, f);
      if (!nr.length || !pipit.length) continue;
      const per = stat(what === 'req/s' ? ratios(pipit, nr) : ratios(nr, pipit));
      rows.push([
        `\`POST /execute\` (utils.echo; Pipit with its token) ${what}`,
        statText(stat(nr), digits),
        statText(stat(pipit), digits),
        '—',
        `${ratioText(per)}${what === 'req/s' ? '' : ' (Node-RED / Pipit)'}`,
        '',
      ]);
    }
  }

  if (r.startup) {
    const ready: Series = (name) => (r.startup![name] ?? []).map((s) => s.readyMs);
    const fastify = ready(NAMES.fastify);
    const nr = ready(NAMES.nodeRed);
    const vsNr = pipits.map(([, name]) => stat(ratios(ready(name), nr)));
    const vsFastify = pipits.map(([, name]) => stat(ratios(ready(name), fastify)));
    rows.push([
      `Start-up, spawn to the first 200, ms (fastify anchor: ${statText(stat(fastify), 0)})`,
      statText(stat(nr), 0),
      ...pipits.map(([, name]) => statText(stat(ready(name)), 0)),
      `${ratioText(vsNr[0]!)}; ${ratioText(vsNr[1]!)} (of fastify: ${ratioText(vsFastify[0]!)}; ${ratioText(vsFastify[1]!)})`,
      '≤ 0.5× Node-RED, ≤ 1.2× fastify',
    ]);
    pipits.forEach(([form], i) => {
      goals.push(judge(`start-up, Pipit ${form} / fastify`, vsFastify[i]!.median, '<=', 1.2));
      goals.push(judge(`start-up, Pipit ${form} / Node-RED`, vsNr[i]!.median, '<=', 0.5));
    });
  }

  if (r.memory) {
    const mem = (name: string, f: (m: MemoryRun) => number) => (r.memory![name] ?? []).map(f);
    const checkpoints = [
      ['RSS 1 s after the first answer, MB', (m: MemoryRun) => m.rssMb.start, ''],
      ['RSS idle, at the end of the idle (no load), MB', (m: MemoryRun) => m.rssMb.idle, '≤ 1×'],
      ['RSS right after the hook load, MB', (m: MemoryRun) => m.rssMb.loaded, '≤ 1.2×'],
      ['RSS after the recovery (no load), MB', (m: MemoryRun) => m.rssMb.recovered, ''],
      ['Peak RSS (VmHWM), MB', (m: MemoryRun) => m.peakMb, ''],
    ] as const;
    for (const [what, f, goal] of checkpoints) {
      const nr = mem(NAMES.nodeRed, f);
      const per = pipits.map(([, name]) => stat(ratios(mem(name, f), nr)));
      rows.push([
        what,
        statText(stat(nr), 1),
        ...pipits.map(([, name]) => statText(stat(mem(name, f)), 1)),
        `${ratioText(per[0]!)}; ${ratioText(per[1]!)}`,
        goal,
      ]);
      if (goal)
        pipits.forEach(([form], i) =>
          goals.push(
            judge(
              `${what.startsWith('RSS idle') ? 'idle RSS' : 'RSS after load'}, Pipit ${form} / Node-RED`,
              per[i]!.median,
              '<=',
              goal === '≤ 1×' ? 1 : 1.2,
            ),
          ),
        );
    }
    const back = (name: string) => mem(name, (m) => m.rssMb.recovered / m.rssMb.idle);
    rows.push([
      'RSS after the recovery / idle RSS',
      statText(stat(back(NAMES.nodeRed)), 2, '×'),
      ...pipits.map(([, name]) => statText(stat(back(name)), 2, '×')),
      '',
      '≤ 1.2× (Pipit)',
    ]);
    pipits.forEach(([form, name]) =>
      goals.push(
        judge(
          `RSS back within 20% of idle, Pipit ${form} (recovered / idle)`,
          stat(back(name)).median,
          '<=',
          1.2,
        ),
      ),
    );
  }
  return { rows, goals };
}
