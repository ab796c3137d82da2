// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead } from '../api/index.ts';
import { NotificationEvent } from './events.ts';

/**
 * `ntfy`'s facts, for the plugin and the catalog: off until configured, and the event it raises
 * for each message of a subscribed topic (Platypush's `platypush.message.event.ntfy.NotificationEvent`).
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'ntfy',
  disabledHint:
    'add an "ntfy:" section (server_url defaults to https://ntfy.sh; add token or username/password for protected topics, subscriptions: [topics] to receive)',
  events: { NotificationEvent },
});
