// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead } from '../api/index.ts';

/**
 * `system`'s facts, for the plugin and the catalog. On by default: its actions only read the host's
 * counters (CPU, memory, disks, network, sensors), which hold no secrets. `system.processes`, which
 * would show command lines (where passwords and tokens often sit), is refused until the section
 * says `allow_processes: true`.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({ name: 'system', enabledByDefault: true });
