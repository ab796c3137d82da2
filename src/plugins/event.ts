import { z } from 'zod';
import { definePluginHead, headFacts } from './api/head.ts';
import { defineAction, definePlugin } from '../core/action.ts';

const fire = defineAction({
  name: 'fire',
  summary: 'Publishes an event: to /ws/events subscribers and to every matching hook.',
  params: {
    subtype: z
      .string()
      .max(200)
      .optional()
      .describe('free-form subtype of a custom event, e.g. "door_open"'),
    args: z
      .record(z.string(), z.unknown())
      .default({})
      .describe('the event payload (key/value map)'),
    kind: z
      .string()
      .default('CustomEvent')
      .describe('event kind: short ("CustomEvent") or fully qualified name'),
  },
  run: async ({ subtype, args, kind }, { services }) => {
    const event = await services.events.emit(kind, {
      ...(subtype === undefined ? {} : { subtype }),
      args,
    });
    return { id: event.id, type: event.args.type };
  },
});

const kinds = defineAction({
  name: 'kinds',
  summary: 'Lists the event kinds this instance knows (fully qualified names).',
  params: {},
  run: (_args, { services }) => services.events.kinds.list(),
});

/**
 * `event`'s facts, for the catalog: on by default (it is loaded with every service anyway).
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'event', enabledByDefault: true });

export default definePlugin({
  ...headFacts(head),
  // Privileged: it raises and lists any kind of event, not only its own.
  privileged: true,
  summary: 'Raises events from procedures, hooks, the CLI and clients.',
  actions: [fire, kinds],
});
