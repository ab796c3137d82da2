import { z } from '../api/index.ts';

/**
 * The `system:` section. Platypush's `poll_interval` and `disable_monitor` are accepted so that a
 * Platypush section loads unchanged; Pipit does not poll the host (there are no system entities),
 * so they change nothing.
 *
 * @example
 * SystemConfig.parse({}).allow_processes; // false
 */
export const SystemConfig = z.strictObject({
  allow_processes: z
    .boolean()
    .default(false)
    .describe(
      'allow system.processes: it lists every process with its command line, where passwords and tokens often sit (off by default)',
    ),
  poll_interval: z
    .number()
    .nonnegative()
    .optional()
    .describe("Platypush's entity polling interval: accepted, unused (Pipit does not poll)"),
  disable_monitor: z
    .boolean()
    .optional()
    .describe("Platypush's switch for its polling: accepted, unused (Pipit does not poll)"),
});
export type SystemConfig = z.output<typeof SystemConfig>;
