import { z } from 'zod';

/**
 * The `runs:` section: whether every run is recorded, and how much history is kept.
 *
 * @example
 * // config.yaml
 * // runs: {record: true, max_runs: 10000, max_age_days: 30, max_output_bytes: 16384}
 */
export const RunsConfig = z
  .object({
    record: z
      .boolean()
      .default(true)
      .describe('record every run (false: no history; hook and cron failures still raise events)'),
    max_runs: z
      .number()
      .int()
      .min(100)
      .max(10_000_000)
      .default(10_000)
      .describe('runs kept, steps included; the oldest go first'),
    max_age_days: z
      .number()
      .positive()
      .max(3650)
      .default(30)
      .describe('runs older than this are deleted'),
    max_output_bytes: z
      .number()
      .int()
      .min(256)
      .max(10 * 1024 * 1024)
      .default(16_384)
      .describe("a run's output (and arguments) is cut to this many characters of JSON"),
  })
  .strict();

/** The parsed `runs:` section. */
export type RunsConfig = z.output<typeof RunsConfig>;
