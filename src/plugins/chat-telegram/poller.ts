import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyValueStore, PipitError, PluginContext } from '../api/index.ts';
import type { BotApi } from './client.ts';
import type { TelegramConfig } from './config.ts';
import type { TgChat, TgMessage, TgUser } from './dump.ts';
import { authorizer, toEvent } from './incoming.ts';
import type { TelegramLink } from './link.ts';

/** What the poller needs of the plugin. */
export interface PollerContext {
  api: BotApi;
  config: TelegramConfig;
  link: TelegramLink;
  kv: KeyValueStore;
  log: PluginContext<TelegramConfig>['log'];
  fire(kind: string, fields: Record<string, unknown>): Promise<void>;
  /** Called with the bot once getMe answers. */
  onBot(bot: TgUser): void;
  signal: AbortSignal;
}

/** Where polling resumes: the next update_id, and when the last update came (ms). */
interface Cursor {
  offset: number;
  at: number;
}

// Telegram keeps updates 24 hours, and after a week without any it numbers the next one at random:
// an offset older than a day confirms nothing that is still there, and might skip a new lower id.
const CURSOR_TTL_MS = 24 * 3600_000;
// Unauthorized chats are logged once each; past this many, no more are remembered.
const MAX_LOGGED_CHATS = 1000;

function cursorKey(config: TelegramConfig): string {
  return `offset:${config.api_token.split(':')[0]}`;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal }).catch(() => undefined);
}

/**
 * Asks getMe until it answers, then long-polls getUpdates (unless `poll: false`) and raises each
 * message's event, in order. The offset (last update_id + 1) is kept in the plugin's store after
 * each update, so that no update is raised twice after a reconnection or a restart. Failures are
 * retried with backoff (reconnect_min_seconds doubling to reconnect_max_seconds, with jitter); a
 * 429 waits its retry_after; a refused token (401) stops everything, saying which key to fix.
 * Ends when `signal` aborts.
 *
 * @example
 * const done = runPoller({ api, config, link, kv, log, fire, onBot, signal });
 */
export async function runPoller(ctx: PollerContext): Promise<void> {
  const { api, config, link, signal } = ctx;
  let backoff = config.reconnect_min_seconds;

  // False when polling must end (stopped, or the token refused).
  const failed = async (err: unknown): Promise<boolean> => {
    if (signal.aborted) return false;
    const e = err as PipitError;
    const status = e.details?.status;
    if (status === 401 || status === 404) {
      link.refuse(e.message);
      ctx.log.error({ status }, e.message);
      return false;
    }
    const after = e.details?.retryAfter;
    if (typeof after === 'number') {
      ctx.log.warn(
        { retry_after: after },
        `chat.telegram: rate-limited by the Bot API, polling again in ${after} s`,
      );
      await pause(after * 1000, signal);
      return !signal.aborted;
    }
    const reason =
      status === 409
        ? `another client is reading this bot's updates (409 Conflict): stop it (an old Platypush?), or set chat.telegram.poll: false here`
        : e.message.replace(/^chat\.telegram: /, '');
    const wait = backoff * (0.8 + Math.random() * 0.4);
    link.down(reason, wait);
    backoff = Math.min(config.reconnect_max_seconds, backoff * 2);
    await pause(wait * 1000, signal);
    return !signal.aborted;
  };

  let bot: TgUser | undefined;
  while (!bot) {
    try {
      bot = await api.call<TgUser>('getMe', {}, { signal });
    } catch (err) {
      if (!(await failed(err))) return;
    }
  }
  ctx.onBot(bot);
  const upDetail = `bot @${bot.username ?? bot.id} on ${api.host}${config.poll ? '' : ' (sending only)'}`;
  link.up(upDetail);
  backoff = config.reconnect_min_seconds;
  if (!config.poll) return;

  const key = cursorKey(config);
  let cursor = ctx.kv.get<Cursor>(key);
  const authorized = authorizer(config.authorized_chat_ids);
  const logged = new Set<number>();
  const ignore = (chat: TgChat) => {
    if (logged.has(chat.id) || logged.size >= MAX_LOGGED_CHATS) return;
    logged.add(chat.id);
    ctx.log.warn(
      { chat_id: chat.id, chat_type: chat.type, chat_username: chat.username },
      `chat.telegram: ignoring messages from chat ${chat.id}, which is not in chat.telegram.authorized_chat_ids (logged once per chat)`,
    );
  };

  while (!signal.aborted) {
    const offset = cursor && Date.now() - cursor.at < CURSOR_TTL_MS ? cursor.offset : undefined;
    let updates: Array<{ update_id: number; message?: TgMessage; channel_post?: TgMessage }>;
    try {
      updates = await api.call(
        'getUpdates',
        {
          offset,
          timeout: config.poll_timeout_seconds,
          allowed_updates: ['message', 'channel_post'],
        },
        {
          signal,
          timeoutMs: (config.poll_timeout_seconds + config.request_timeout_seconds) * 1000,
          timeoutKey: 'chat.telegram.poll_timeout_seconds + request_timeout_seconds',
        },
      );
    } catch (err) {
      if (!(await failed(err))) return;
      continue;
    }
    link.up(upDetail);
    backoff = config.reconnect_min_seconds;
    for (const update of updates) {
      if (signal.aborted) return;
      const message = update.message ?? update.channel_post;
      if (message && !authorized(message.chat)) ignore(message.chat);
      else if (message) {
        const event = toEvent(message, bot.username);
        if (event)
          await ctx
            .fire(event.kind, event.fields)
            .catch((err: unknown) =>
              ctx.log.error(
                { err, update_id: update.update_id },
                'chat.telegram: an event was not raised',
              ),
            );
      }
      cursor = { offset: update.update_id + 1, at: Date.now() };
      ctx.kv.set(key, cursor);
    }
  }
}
