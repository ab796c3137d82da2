import { z } from 'zod';
import { definePluginHead, headFacts } from './api/head.ts';
import { defineAction, definePlugin } from '../core/action.ts';

const Name = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^\s]+$/, 'must not contain spaces')
  .describe('the variable name');

const get = defineAction({
  name: 'get',
  summary: 'Returns a stored variable: {name: value}, with null when it is not set.',
  params: {
    name: Name,
    default: z.unknown().optional().describe('value returned when the variable is not set'),
    default_value: z
      .unknown()
      .optional()
      .describe('Platypush\'s name for "default" (either may be given)'),
  },
  run: ({ name, default: fallback, default_value: platypushFallback }, { services }) => {
    const value = services.store.variables.get(name);
    return { [name]: value === undefined ? (fallback ?? platypushFallback ?? null) : value };
  },
});

const set = defineAction({
  name: 'set',
  summary: 'Stores variables, given as name=value arguments; they survive restarts.',
  params: {},
  extraArgs: true,
  run: (args, { services }) => {
    services.store.variables.setMany(args);
    return args;
  },
});

const unset = defineAction({
  name: 'unset',
  summary: 'Removes a stored variable.',
  params: { name: Name },
  run: ({ name }, { services }) => ({ removed: services.store.variables.unset(name) }),
});

const list = defineAction({
  name: 'list',
  summary: 'Returns every stored variable as {name: value}.',
  params: {},
  run: (_args, { services }) => services.store.variables.all(),
});

/**
 * `variable`'s facts, for the catalog: on by default (it is loaded with every service anyway).
 *
 * @example
 * definePlugin({ ...headFacts(head), summary: '...', actions });
 */
export const head = definePluginHead({ name: 'variable', enabledByDefault: true });

export default definePlugin({
  ...headFacts(head),
  // Privileged: the variables are the store's, shared with expressions' Variable.get and every
  // other plugin.
  privileged: true,
  summary: 'Named values stored in the database, shared by procedures, hooks and clients.',
  actions: [get, set, unset, list],
});
