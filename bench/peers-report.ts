// The figures of `npm run bench:peers` summed up: medians with their spread, Pipit/Node-RED ratios,
// each goal judged (PASS/MISS), and a markdown table for docs/benchmarks.md. Pure functions.
import { median } from './lib.ts';

/** A median and the range of the values it came from. */
export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

/**
 * The median and min–max of some values (NaN when there are none).
 *
 * @example
 * stat([3, 1, 2]); // { median: 2, min: 1, max: 3, n: 3 }
 */
export function stat(values: number[]): Stat {
  if (!values.length) return { median: NaN, min: NaN, max: NaN, n: 0 };
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    n: values.length,
  };
}

/**
 * Element-wise `a[i] / b[i]`: the per-round ratios of two series measured in the same rounds.
 *
 * @example
 * ratios([10, 12], [2, 3]); // [5, 4]
 */
export function ratios(a: number[], b: number[]): number[] {
  return a.slice(0, b.length).map((x, i) => x / b[i]!);
}

/**
 * A stat as text: "12.3 (11.9–13.0)", or the value alone when there was one.
 *
 * @example
 * statText({ median: 2, min: 1, max: 3, n: 3 }, 1); // "2.0 (1.0–3.0)"
 */
export function statText(s: Stat, digits: number, unit = ''): string {
  if (!s.n) return '—';
  const f = (x: number) => x.toFixed(digits);
  return s.n === 1 ? `${f(s.median)}${unit}` : `${f(s.median)}${unit} (${f(s.min)}–${f(s.max)})`;
}

/** One goal, judged. */
export interface GoalResult {
  label: string;
  /** The figure the goal is judged on. */
  value: number;
  /** "≥ 6×", "≤ 1.2×"... */
  goal: string;
  pass: boolean;
}

/**
 * Judges a figure against a bound.
 *
 * @example
 * judge('hook throughput, YAML / Node-RED', 7.1, '>=', 6, '×'); // { pass: true, goal: '≥ 6×', ... }
 */
export function judge(
  label: string,
  value: number,
  op: '>=' | '<=',
  bound: number,
  unit = '×',
): GoalResult {
  const pass = op === '>=' ? value >= bound : value <= bound;
  return { label, value, goal: `${op === '>=' ? '≥' : '≤'} ${bound}${unit}`, pass };
}

/**
 * The goals as lines: "PASS  hook throughput, YAML / Node-RED: 7.10× (goal ≥ 6×)".
 *
 * @example
 * goalLines([judge('x', 7, '>=', 6)]); // ['PASS  x: 7.00× (goal ≥ 6×)']
 */
export function goalLines(goals: GoalResult[]): string[] {
  return goals.map(
    (g) =>
      `${g.pass ? 'PASS' : 'MISS'}  ${g.label}: ${Number.isNaN(g.value) ? '?' : g.value.toFixed(2)}× (goal ${g.goal})`,
  );
}

/** A row of the markdown table: a label, then one cell per column. */
export type Row = [label: string, ...cells: string[]];

/**
 * A markdown table.
 *
 * @example
 * markdownTable(['Figure', 'a'], [['x', '1']]); // "| Figure | a |\n|---|---|\n| x | 1 |"
 */
export function markdownTable(head: string[], rows: Row[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
