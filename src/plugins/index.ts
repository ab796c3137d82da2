import type { PluginDef } from '../core/action.ts';
import automations from './automations/plugin.ts';
import chatTelegram from './chat-telegram/plugin.ts';
import db from './db/plugin.ts';
import event from './event.ts';
import file from './file/plugin.ts';
import homeassistant from './homeassistant/plugin.ts';
import http from './http/plugin.ts';
import inspect from './inspect.ts';
import lightHue from './light-hue/plugin.ts';
import mailSmtp from './mail-smtp/plugin.ts';
import logger from './logger.ts';
import mqtt from './mqtt/plugin.ts';
import ntfy from './ntfy/plugin.ts';
import musicMpd from './music-mpd/plugin.ts';
import runs from './runs/plugin.ts';
import shell from './shell/plugin.ts';
import spotify from './music/spotify/plugin.ts';
import system from './system/plugin.ts';
import utils from './utils.ts';
import variable from './variable.ts';
import zigbeeMqtt from './zigbee-mqtt/plugin.ts';

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
  runs,
  automations,
  spotify,
  shell,
  file,
  http,
  mqtt,
  zigbeeMqtt,
  lightHue,
  homeassistant,
  system,
  db,
  musicMpd,
  ntfy,
  mailSmtp,
  chatTelegram,
] as PluginDef[];
