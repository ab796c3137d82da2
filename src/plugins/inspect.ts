import { z } from 'zod';
import { definePluginHead, headFacts } from './api/head.ts';
import { defineAction, definePlugin } from '../core/action.ts';
import type { ClusterReport } from '../core/cluster-port.ts';
import { PipitError } from '../core/errors.ts';
import type { Scheduler } from '../cron/scheduler.ts';
import { pipitVersion } from '../lib/version.ts';

// When this process loaded its plugins: the start of a standalone instance.
const STARTED_AT = new Date().toISOString();

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
  description:
    "params lists the declared arguments; required those a call must pass (declared without a default), and defaults the others' values. A script procedure declares no defaults, so its required is empty.",
  params: {},
  run: (_args, { services }) =>
    [...services.registry.procedures.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => ({
        name: `procedure.${p.name}`,
        params: p.params,
        required: p.required ?? [],
        defaults: p.defaults ?? {},
        summary: p.summary,
        source: p.source,
      })),
});

const getHooks = defineAction({
  name: 'get_hooks',
  summary: 'Every event and web hook with where it is defined and whether it is switched on.',
  description:
    'enabled is false for a hook switched off by automations.disable: it matches no event (a web hook answers 404) until enabled again.',
  params: {},
  run: (_args, { services }) => {
    const { hooks } = services.events;
    return hooks.list().map((h) => ({
      name: `event.hook.${h.name}`,
      source: h.source,
      webhook: h.webhook ?? null,
      enabled: !hooks.isDisabled?.(h.name),
    }));
  },
});

const getCrons = defineAction({
  name: 'get_crons',
  summary: 'Every cron job with its schedule, next run, where it is defined and whether it is on.',
  description:
    'enabled is false for a job switched off by automations.disable: its due runs are not started (next is then null).',
  params: {},
  run: (_args, { services }) =>
    (services.cron as Partial<Scheduler>).list?.().map((c) => ({
      name: `cron.${c.name}`,
      expression: c.expression,
      timezone: c.timezone,
      next: c.disabled ? null : c.next,
      source: c.source,
      enabled: !c.disabled,
    })) ?? [],
});

const instances = defineAction({
  name: 'instances',
  summary:
    'The instances of the cluster (this one first) with their plugins, version and last heartbeat, and the state of the connection to Redis.',
  description:
    'cluster is "off" without a redis section, "connected", or "unreachable" (Redis down: error says why, and the other instances drop out of the list as their last heartbeats age). refused counts the messages from Redis that were refused (unsigned, forged, stale, replayed, addressed to another instance).',
  params: {},
  run: async (_args, { services }) => {
    if (services.cluster) return services.cluster.report();
    const now = new Date().toISOString();
    return {
      cluster: 'off',
      redis: null,
      error: null,
      since: null,
      self: services.deviceId,
      instances: [
        {
          device_id: services.deviceId,
          self: true,
          version: pipitVersion(),
          plugins: [...services.registry.plugins.keys()],
          started_at: STARTED_AT,
          last_seen: now,
        },
      ],
      refused: {},
      events: {},
      requests_in_flight: 0,
    } satisfies ClusterReport;
  },
});

/**
 * `inspect`'s facts, for the catalog: on by default (it is loaded with every service anyway).
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'inspect', enabledByDefault: true });

export default definePlugin({
  ...headFacts(head),
  // It lists the registry, the hooks and the crons: the whole service, not a plugin's share.
  privileged: true,
  summary:
    'Describes what this instance can do (plugins, actions, procedures) and which instances share its cluster.',
  actions: [getAllPlugins, getPlugin, getProcedures, getHooks, getCrons, instances],
});
