import { z } from 'zod';
import { defineAction, definePlugin } from '../core/action.ts';
import { PipitError } from '../core/errors.ts';

const getAllPlugins = defineAction({
  name: 'get_all_plugins',
  summary:
    'Every enabled plugin with its actions, their docs and the JSON Schema of their parameters.',
  params: {},
  run: (_args, { services }) => services.registry.catalog(),
});

const getPlugin = defineAction({
  name: 'get_plugin',
  summary: 'One enabled plugin with its actions, docs and parameter schemas.',
  params: { name: z.string().describe('plugin name (or alias), e.g. "music.spotify"') },
  run: ({ name }, { services }) => {
    const canonical = services.registry.canonical(name);
    const plugin = services.registry.catalog().find((p) => p.name === canonical);
    if (!plugin)
      throw new PipitError('NOT_FOUND', `inspect.get_plugin: no enabled plugin named "${name}"`);
    return plugin;
  },
});

const getProcedures = defineAction({
  name: 'get_procedures',
  summary: 'Every procedure with its declared arguments and where it is defined.',
  params: {},
  run: (_args, { services }) =>
    [...services.registry.procedures.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => ({
        name: `procedure.${p.name}`,
        params: p.params,
        summary: p.summary,
        source: p.source,
      })),
});

export default definePlugin({
  name: 'inspect',
  summary: 'Describes what this instance can do: plugins, actions and procedures.',
  enabledByDefault: true,
  actions: [getAllPlugins, getPlugin, getProcedures],
});
