import { setTimeout as delay } from 'node:timers/promises';
// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { defineAction, definePlugin, definePluginHead, PipitError, z } from './api/index.ts';

/** The longest `utils.sleep`, so a typo cannot park a request for hours. */
export const MAX_SLEEP_SECONDS = 3600;

const echo = defineAction({
  name: 'echo',
  summary: 'Returns the arguments it was given, unchanged.',
  description: 'Useful to test a connection, a token or a procedure step.',
  params: {},
  extraArgs: true,
  result: z.record(z.string(), z.unknown()).describe('the arguments, as sent'),
  run: (args) => args,
});

const sleep = defineAction({
  name: 'sleep',
  summary: 'Waits for a number of seconds, then returns nothing.',
  params: {
    seconds: z
      .number()
      .min(0)
      .max(MAX_SLEEP_SECONDS)
      .describe('how long to wait, in seconds (fractions allowed)'),
  },
  run: async ({ seconds }, { signal }) => {
    try {
      await delay(seconds * 1000, undefined, { signal });
    } catch (err) {
      throw new PipitError('ACTION_FAILED', `utils.sleep: interrupted after the caller gave up`, {
        cause: err,
      });
    }
  },
});

/**
 * `utils`'s facts, for the catalog: on by default.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions: [echo] });
 */
export const head = definePluginHead({ name: 'utils', enabledByDefault: true });

export default definePlugin({
  ...head,
  summary: 'Small utilities: echo and sleep.',
  actions: [echo, sleep],
});
