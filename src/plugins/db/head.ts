// The plugin's facts, read by the plugin and by the lazy catalog: cheap, no heavy imports.
import { definePluginHead } from '../api/index.ts';

/** `db`: off until the configuration has a `db:` section. */
export const head = definePluginHead({
  name: 'db',
  disabledHint:
    'add a "db:" section, with "engine" for a default database (e.g. engine: sqlite:////var/lib/pipit/data.db or postgresql://user:password@host/db)',
});
