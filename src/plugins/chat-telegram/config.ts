import { secret, z } from '../api/index.ts';

/** The API Telegram serves; another one (a local Bot API server, an emulator) goes in api_url. */
export const TELEGRAM_API_URL = 'https://api.telegram.org';

/**
 * The `chat.telegram:` section (also read as `telegram:`, Platypush 1.x's name): Platypush's
 * `api_token` and `authorized_chat_ids`, and how the Bot API is reached.
 *
 * @example
 * TelegramConfig.parse({ api_token: '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11' }).poll_timeout_seconds; // 30
 */
export const TelegramConfig = z.strictObject({
  api_token: secret(
    z
      .string()
      .trim()
      .regex(
        /^\d+:[\w-]+$/,
        'is not a bot token: it looks like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11 (ask @BotFather for it)',
      )
      .describe('the bot token @BotFather gave, like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11'),
  ),
  authorized_chat_ids: z
    .array(
      z.union([
        z.number().int(),
        z
          .string()
          .trim()
          .regex(/^(-?\d+|@\w+)$/, 'is not a chat id: write a number, or @username'),
      ]),
    )
    .default([])
    .describe(
      'chats (ids, or @usernames of public groups and channels) whose messages raise events; empty: every chat',
    ),
  api_url: z
    .url({ protocol: /^https?$/ })
    .default(TELEGRAM_API_URL)
    .describe('the Bot API server (a local telegram-bot-api server, or a test emulator)'),
  poll: z
    .boolean()
    .default(true)
    .describe('receive messages (getUpdates long polling); false: only send'),
  poll_timeout_seconds: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(30)
    .describe('how long one getUpdates waits for a message before asking again, in seconds'),
  request_timeout_seconds: z
    .number()
    .positive()
    .max(300)
    .default(20)
    .describe('how long a request to the Bot API may take (an upload included), in seconds'),
  max_retry_after_seconds: z
    .number()
    .min(0)
    .max(3600)
    .default(30)
    .describe(
      'a send the Bot API rate-limits (429) waits its retry_after and retries once if it is at most this long, else fails',
    ),
  reconnect_min_seconds: z
    .number()
    .positive()
    .max(600)
    .default(1)
    .describe(
      'the first wait before polling again after a failure, in seconds (doubles each time)',
    ),
  reconnect_max_seconds: z
    .number()
    .positive()
    .max(3600)
    .default(30)
    .describe('the longest wait between two attempts to reach the Bot API, in seconds'),
});

export type TelegramConfig = z.output<typeof TelegramConfig>;
