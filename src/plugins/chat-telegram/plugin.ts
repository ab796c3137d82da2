// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePlugin } from '../api/index.ts';
import { BotApi } from './client.ts';
import { TelegramConfig } from './config.ts';
import { getMe } from './get-me.ts';
import { head } from './head.ts';
import { TelegramLink } from './link.ts';
import { runPoller } from './poller.ts';
import { sendDocument, sendPhoto } from './send-media.ts';
import { sendMessage } from './send-message.ts';
import type { TelegramState } from './state.ts';

export default definePlugin<TelegramConfig, TelegramState>({
  ...head,
  summary:
    "A Telegram bot (Bot API): sends messages, pictures and files, and raises Platypush's events for the messages it receives.",
  config: TelegramConfig,
  actions: [sendMessage, sendPhoto, sendDocument, getMe],
  init: (ctx) => {
    const { config, log, kv, signal } = ctx;
    const api = new BotApi(config);
    const link = new TelegramLink((status) => ctx.setStatus(status), api.host);
    const state: TelegramState = { api, link, config, polling: Promise.resolve() };
    state.polling = runPoller({
      api,
      config,
      link,
      kv,
      log,
      fire: (kind, fields) => ctx.fire(kind, fields),
      onBot: (bot) => (state.bot = bot),
      signal,
    }).catch((err: unknown) => log.error({ err }, 'chat.telegram: polling stopped on an error'));
    return state;
  },
  stop: (state) => state.polling,
});
