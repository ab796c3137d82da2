// A script's cron() is documented (its JSDoc, what editors show) with the syntax the scheduler
// reads: six fields have the seconds LAST. Each expression the JSDoc explains is checked against
// the times the scheduler computes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { toCronerPattern } from '../../src/cron/expression.ts';

const API = join(import.meta.dirname, '../../src/scripts/api.ts');

// The JSDoc above `export function cron(`, with `*\/` unescaped.
function cronDoc(): string {
  const text = readFileSync(API, 'utf8');
  const end = text.indexOf('export function cron(');
  const start = text.lastIndexOf('/**', end);
  return text.slice(start, end).replaceAll('*\\/', '*/');
}

// Seconds between the next runs after a fixed time.
function gaps(expression: string): number[] {
  const cron = new Cron(toCronerPattern(expression), { timezone: 'UTC', paused: true });
  const runs = cron.nextRuns(4, new Date('2026-11-23T10:03:00Z'));
  cron.stop();
  return runs.slice(1).map((run, i) => (run.getTime() - runs[i]!.getTime()) / 1000);
}

describe("a script's cron() documentation", () => {
  it('says six fields have the seconds last, not "croner syntax"', () => {
    const doc = cronDoc();
    expect(doc).not.toMatch(/croner syntax/);
    expect(doc).toMatch(/seconds LAST/);
  });

  it('explains its examples as the scheduler runs them', () => {
    const doc = cronDoc();
    expect(doc).toContain("`'* * * * * */3'` is every 3 seconds");
    expect(gaps('* * * * * */3')).toEqual([3, 3, 3]);
    expect(doc).toContain("`'*/3 * * * * *'`\n * is every second of the minutes divisible by 3");
    expect(gaps('*/3 * * * * *')).toEqual([1, 1, 1]);
  });
});
