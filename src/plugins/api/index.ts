// The API a plugin package may use, exported by `pipit` itself: plugins import from 'pipit' and
// from nothing else of Pipit's, so that any of them can be published on its own.
export { actionsFor, definePlugin, defineAction } from './define.ts';
export { definePluginHead } from './head.ts';
export type { PluginHead } from './head.ts';
export type {
  PluginAction,
  PluginActionContext,
  PluginContext,
  PluginManifest,
  PluginRequest,
  PluginRoute,
  PluginStatus,
} from './manifest.ts';
export type { KeyValueStore } from '../../core/key-value.ts';
export { secret, secretUserinfo, redactUrlUserinfo } from '../../core/action.ts';
// Helpers for plugins that handle other services' text: which keys hold secrets, JSON nested too
// deep to parse safely, and Python's str() for plugins that keep Platypush's output.
export { isSecretKey } from '../../core/redact.ts';
export { jsonTextTooDeep } from '../../core/json-limits.ts';
export { pyStr } from '../../procedures/expression/python.ts';
export { PipitError } from '../../core/errors.ts';
export { didYouMean } from '../../lib/suggest.ts';
export { networkCause } from '../../lib/network-cause.ts';
export { z } from 'zod';
