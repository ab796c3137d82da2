// Six-field cron expressions follow Platypush (croniter): the seconds are the last field.
// The expected times are croniter's (`croniter(expr, now).get_next(datetime)`), worked out by hand
// for a fixed "now" (Monday 2026-11-23 10:00:00 UTC).
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { toCronerPattern } from '../../src/cron/expression.ts';
import { Scheduler } from '../../src/cron/scheduler.ts';

const NOW = new Date('2026-11-23T10:00:00Z');

const TABLE: Array<[string, string]> = [
  ['30 7 * * * 5', '2026-11-24T07:30:05.000Z'], // 07:30:05 daily; today's has passed
  ['*/15 * * * * 30', '2026-11-23T10:00:30.000Z'], // second 30 of every quarter hour
  ['* * * * * */10', '2026-11-23T10:00:10.000Z'], // every 10 seconds
  ['0 12 * * 5 0', '2026-11-27T12:00:00.000Z'], // Friday noon
  ['0 0 1 1 * 0', '2027-01-01T00:00:00.000Z'], // new year
  ['5 10 * * * 59', '2026-11-23T10:05:59.000Z'], // later today
  ['0 23 * * *', '2026-11-23T23:00:00.000Z'], // five fields: unchanged
  ['*/20 * * * *', '2026-11-23T10:20:00.000Z'],
];

describe('cron expressions', () => {
  it.each(TABLE)('%s next runs at %s (croniter)', (expression, expected) => {
    const cron = new Cron(toCronerPattern(expression), { timezone: 'UTC', paused: true });
    expect(cron.nextRun(NOW)?.toISOString()).toBe(expected);
    cron.stop();
  });

  it('"30 7 * * * 5" is 07:30:05 every day, not hourly on Fridays', () => {
    expect(toCronerPattern('30 7 * * * 5')).toBe('5 30 7 * * *');
  });

  it('refuses other field counts with the two accepted forms', () => {
    expect(() =>
      Scheduler.validate({
        name: 'x',
        expression: '0 0 0 1 1 * 2027',
        source: 'config.yaml',
        run: () => Promise.resolve(),
      }),
    ).toThrow(/has 7 fields: use 5 .* or 6 with the seconds last/);
  });
});
