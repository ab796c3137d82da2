import { z } from '../api/index.ts';
import type { BotApi } from './client.ts';
import type { TelegramConfig } from './config.ts';
import type { TgUser } from './dump.ts';
import type { TelegramLink } from './link.ts';

/** What the plugin's actions share: the client, the link, and the bot once getMe answered. */
export interface TelegramState {
  api: BotApi;
  link: TelegramLink;
  config: TelegramConfig;
  bot?: TgUser;
  /** The poller, awaited on stop. */
  polling: Promise<void>;
}

/** `chat_id`, as Platypush takes it: a number, or "@channelusername". */
export const ChatId = z
  .union([z.number().int(), z.string().trim().min(1)])
  .describe('the chat: its numeric id (a user, a group), or "@channelusername"');

/** `parse_mode`: Telegram's formatting modes (a pattern without flags: JSON Schema has none). */
export const ParseMode = z
  .string()
  .regex(
    /^(Markdown|MarkdownV2|HTML|markdown|markdownv2|html)$/,
    'must be Markdown, MarkdownV2 or HTML',
  )
  .optional()
  .describe('format the text as Markdown, MarkdownV2 or HTML (default: plain text)');

const PARSE_MODES: Record<string, string> = {
  markdown: 'Markdown',
  markdownv2: 'MarkdownV2',
  html: 'HTML',
};

/** `parse_mode` as Telegram spells it, whatever case it was written in. */
export function parseModeOf(mode: string | undefined): string | undefined {
  return mode === undefined ? undefined : PARSE_MODES[mode.toLowerCase()];
}

/** Platypush's per-call `timeout`. */
export const Timeout = z
  .number()
  .positive()
  .max(300)
  .optional()
  .describe('how long the request may take, in seconds (default: request_timeout_seconds)');

/** The call options for an action's `timeout` and signal. */
export function callOptions(
  timeout: number | undefined,
  signal: AbortSignal,
): { signal: AbortSignal; retryRateLimit: true; timeoutMs?: number; timeoutKey?: string } {
  return {
    signal,
    retryRateLimit: true,
    ...(timeout === undefined
      ? {}
      : { timeoutMs: timeout * 1000, timeoutKey: 'the timeout argument' }),
  };
}

/** `reply_to_message_id` and `disable_notification` as the Bot API takes them now. */
export function deliveryParams(args: {
  disable_notification: boolean;
  reply_to_message_id?: number | undefined;
}): Record<string, unknown> {
  return {
    ...(args.disable_notification ? { disable_notification: true } : {}),
    ...(args.reply_to_message_id === undefined
      ? {}
      : { reply_parameters: { message_id: args.reply_to_message_id } }),
  };
}
