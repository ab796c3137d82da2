// Written against the public plugin API only, as a plugin package is (npm run lint:layers).
import { definePluginHead, z } from '../api/index.ts';

/** A Telegram message as Platypush's chat.telegram gives it (TelegramMessageSchema). */
export const TelegramMessage = z
  .looseObject({
    message_id: z.number().describe('the message id, within its chat'),
    chat_id: z.number().describe('the chat it belongs to'),
    creation_date: z.string().nullable().describe('when it was sent (ISO 8601)'),
    text: z.string().nullable().describe('its text, for a text message or a command'),
    caption: z.string().nullable().describe('the caption of a photo, video or document'),
  })
  .describe("the message, in Platypush's shape (from_*, chat_*, photo_*, document_* ... fields)");

/** The sender, as Platypush's chat.telegram gives it (TelegramUserSchema). */
export const TelegramUser = z
  .looseObject({
    user_id: z.number().describe("the sender's user id"),
    id: z.number().describe('the same id (the key Platypush 1.x names)'),
    username: z.string().nullable().describe("the sender's @username, without @"),
    is_bot: z.boolean(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    language_code: z.string().nullable(),
    link: z.string().nullable().describe('https://t.me/<username>'),
  })
  .nullable()
  .describe('who sent it (null for a channel post)');

/** The fields every message event carries (Platypush's MessageEvent). */
export const MessageEventFields = z.object({
  chat_id: z.number().describe('the chat the message came from: reply with send_message there'),
  message: TelegramMessage,
  user: TelegramUser,
});

/** CommandMessageEvent: a message that starts with "/". */
export const CommandMessageEventFields = MessageEventFields.extend({
  command: z.string().describe('the command without "/" (and without "@botname"), lower case'),
  cmdargs: z.array(z.string()).describe('the words after the command'),
});

/** Platypush's kinds (platypush.message.event.chat.telegram.*), by the kind of message. */
export const TELEGRAM_EVENTS = {
  'chat.telegram.TextMessageEvent': MessageEventFields,
  'chat.telegram.CommandMessageEvent': CommandMessageEventFields,
  'chat.telegram.PhotoMessageEvent': MessageEventFields,
  'chat.telegram.VideoMessageEvent': MessageEventFields,
  'chat.telegram.DocumentMessageEvent': MessageEventFields,
  'chat.telegram.LocationMessageEvent': MessageEventFields,
  'chat.telegram.ContactMessageEvent': MessageEventFields,
  'chat.telegram.GroupChatCreatedEvent': MessageEventFields,
};

/**
 * `chat.telegram`'s facts, for the plugin and the catalog: off until a bot token is configured;
 * `telegram` (Platypush 1.x's name) is an alias; Platypush's event kinds.
 *
 * @example
 * definePlugin({ ...head, summary: '...', actions });
 */
export const head = definePluginHead({
  name: 'chat.telegram',
  aliases: ['telegram'],
  disabledHint:
    'it needs a bot: add a "chat.telegram:" section with "api_token" (the token @BotFather gave you)',
  events: TELEGRAM_EVENTS,
});
