import { setTimeout as delay } from 'node:timers/promises';
import { defineAction, PipitError, z } from '../api/index.ts';
import type { Bridge, StoredAuth } from './bridge.ts';
import { AUTH_KEY, deviceType, getLights } from './bridge.ts';
import { errorsOf } from './client.ts';

/** How often POST /api is retried while the link button is not pressed. */
const RETRY_MS = 1000;

/**
 * `light.hue.connect`: pairs with the bridge. The user presses the bridge's link button; this
 * asks for a username (POST /api) until the bridge gives one or `timeout_seconds` pass, and keeps
 * it in the plugin's store (never in the logs or the answer).
 */
export const connect = defineAction({
  name: 'connect',
  summary: "Pairs Pipit with the bridge: press the bridge's round button first.",
  description:
    'Retries for timeout_seconds while the bridge answers "link button not pressed". A bridge already paired answers at once.',
  params: {
    timeout_seconds: z
      .number()
      .positive()
      .max(120)
      .default(30)
      .describe('how long to wait for the button to be pressed (the bridge allows 30 s after it)'),
  },
  result: z.object({ paired: z.boolean(), bridge: z.string(), already: z.boolean() }),
  run: async ({ timeout_seconds }, { state, kv, log, signal }) => {
    const bridge = state as Bridge;
    const host = bridge.client.host;
    if (bridge.username) {
      try {
        bridge.link.retryAt = 0;
        await getLights(bridge, signal);
        return { paired: true, bridge: host, already: true };
      } catch (err) {
        // A username the bridge forgot is replaced; a bridge that is down is reported.
        if (!(err instanceof PipitError) || !/does not accept/.test(err.message)) throw err;
      }
    }
    const deadline = Date.now() + timeout_seconds * 1000;
    for (;;) {
      const answer = await bridge.client.call('POST', '/api', { devicetype: deviceType() }, signal);
      const username = (answer as Array<{ success?: { username?: string } }>)?.[0]?.success
        ?.username;
      if (typeof username === 'string' && username) {
        const auth: StoredAuth = { bridge: bridge.config.bridge, username };
        kv.set(AUTH_KEY, auth);
        bridge.username = username;
        bridge.link = { connected: true, detail: '', retryAt: 0 };
        bridge.kick();
        log.info({ bridge: host }, 'light.hue: paired with the bridge');
        return { paired: true, bridge: host, already: false };
      }
      const errors = errorsOf(answer);
      if (errors[0]?.type !== 101)
        throw new PipitError(
          'UPSTREAM_ERROR',
          `light.hue.connect: the bridge at ${host} refused to pair: ${errors.map((e) => e.description).join('; ') || JSON.stringify(answer)}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new PipitError(
          'ACTION_FAILED',
          `light.hue.connect: the link button of the bridge at ${host} was not pressed (waited ${timeout_seconds} s): press the round button on the bridge, then run light.hue.connect again within 30 s`,
        );
      try {
        await delay(Math.min(RETRY_MS, left), undefined, { signal });
      } catch (err) {
        throw new PipitError('ACTION_FAILED', 'light.hue.connect: the caller gave up', {
          cause: err,
        });
      }
    }
  },
});
