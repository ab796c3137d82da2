import type { PluginDef } from '../core/action.ts';
import event from './event.ts';
import inspect from './inspect.ts';
import logger from './logger.ts';
import spotify from './music/spotify/plugin.ts';
import utils from './utils.ts';
import variable from './variable.ts';

/**
 * Every plugin Pipit ships, registered explicitly (no directory scanning): the config loader
 * validates their sections and the registry enables the configured ones.
 */
export const builtinPlugins: readonly PluginDef[] = [
  utils,
  logger,
  variable,
  inspect,
  event,
  spotify,
] as PluginDef[];
