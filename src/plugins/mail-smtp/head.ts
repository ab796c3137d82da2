// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead } from '../api/index.ts';

/**
 * `mail.smtp`'s facts, for the plugin and the catalog: off until a section names the server.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'mail.smtp',
  disabledHint:
    'add a "mail.smtp:" section with "server" (and username, password, ssl or starttls as your provider says)',
});
