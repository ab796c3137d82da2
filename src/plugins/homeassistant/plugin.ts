// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { HomeAssistantConfig, websocketUrl } from './config.ts';
import { toPipitEvent } from './events.ts';
import { head } from './head.ts';
import { HomeAssistantLink } from './link.ts';
import { callService, fireEvent, toggle, turnOff, turnOn } from './services.ts';
import type { HomeAssistantState } from './state.ts';
import { getState, getStates } from './states.ts';

export default definePlugin<HomeAssistantConfig, HomeAssistantState>({
  ...head,
  summary:
    "A bridge to Home Assistant over its WebSocket API: services, states, and its events as Pipit's.",
  config: HomeAssistantConfig,
  actions: [callService, getStates, getState, turnOn, turnOff, toggle, fireEvent],
  init: async (ctx) => {
    const { config, log, signal } = ctx;
    const forwarded = new Set(config.events);
    const link = new HomeAssistantLink({
      wsUrl: websocketUrl(config.url),
      token: config.token,
      // state_changed always: it keeps the entity list current (turn_on's check, did-you-mean).
      eventTypes: [...new Set(['state_changed', ...config.events])],
      timeoutMs: config.timeout_seconds * 1000,
      heartbeatMs: config.heartbeat_seconds * 1000,
      backoffMs: {
        min: config.reconnect_min_seconds * 1000,
        max: Math.max(config.reconnect_min_seconds, config.reconnect_max_seconds) * 1000,
        // A refused token stays refused until someone changes it: no hammering.
        authRejected: 5 * 60_000,
      },
      onEvent: (event) => {
        const pipit = toPipitEvent(event, forwarded);
        if (!pipit) return;
        ctx
          .fire(...pipit)
          .catch((err: unknown) =>
            log.warn({ err, event_type: event.event_type }, 'a Home Assistant event was dropped'),
          );
      },
      setStatus: (status) => ctx.setStatus(status),
      log,
      signal,
    });
    ctx.setStatus({ connected: false, detail: 'connecting' });
    // The first attempt is awaited (bounded by its timeout) so that calls right after start work.
    await link.start();
    return { link };
  },
  stop: (state) => state.link.stop(),
});
