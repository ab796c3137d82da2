// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import type { PluginContext } from '../api/index.ts';
import { NtfyConfig, authorization, credentialKeys } from './config.ts';
import { toEventFields } from './events.ts';
import { head } from './head.ts';
import { origin } from './http.ts';
import { sendMessage } from './send-message.ts';
import type { NtfyState } from './state.ts';
import { TopicStream } from './stream.ts';

/** Reports the streams' links as one status: connected when every topic's stream is open. */
function reporter(streams: readonly TopicStream[], ctx: PluginContext<NtfyConfig>): () => void {
  const server = origin(ctx.config.server_url);
  return () => {
    const down = streams.filter((s) => !s.connected);
    if (!down.length) {
      ctx.setStatus({
        connected: true,
        detail: `subscribed to ${streams.map((s) => s.topic).join(', ')} on ${server}`,
      });
      return;
    }
    const waits = down.map((s) => {
      const seconds = Math.max(0, Math.ceil((s.retryAt - Date.now()) / 1000));
      return `${s.topic}: ${s.why}; retrying in ${seconds} s`;
    });
    ctx.setStatus({ connected: false, detail: waits.join('; ') });
  };
}

export default definePlugin<NtfyConfig, NtfyState>({
  ...head,
  summary:
    'ntfy push notifications: send_message publishes to a topic; subscribed topics raise NotificationEvent.',
  config: NtfyConfig,
  actions: [sendMessage],
  init: async (ctx) => {
    const { config, log, signal } = ctx;
    const streams: TopicStream[] = [];
    const report = reporter(streams, ctx);
    for (const topic of new Set(config.subscriptions)) {
      streams.push(
        new TopicStream({
          serverUrl: config.server_url,
          topic,
          authorization: authorization(config),
          credentials: credentialKeys(config),
          timeoutMs: config.timeout_seconds * 1000,
          keepaliveTimeoutMs: config.keepalive_timeout_seconds * 1000,
          backoffMs: {
            min: config.reconnect_min_seconds * 1000,
            max: Math.max(config.reconnect_min_seconds, config.reconnect_max_seconds) * 1000,
          },
          onMessage: (message) => {
            ctx
              .fire('NotificationEvent', toEventFields(message))
              .catch((err: unknown) =>
                log.warn({ err, topic, id: message.id }, 'an ntfy notification was dropped'),
              );
          },
          onChange: report,
          log,
          signal,
        }),
      );
    }
    if (streams.length) {
      ctx.setStatus({ connected: false, detail: 'connecting' });
      // The first attempts are awaited (each bounded by timeout_seconds): a message published
      // right after start is not missed.
      await Promise.all(streams.map((s) => s.start()));
    }
    return { config, streams };
  },
  stop: (state) => {
    for (const s of state.streams) s.stop();
  },
});
