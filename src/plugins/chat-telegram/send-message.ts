import { defineAction, z } from '../api/index.ts';
import type { TgMessage } from './dump.ts';
import { dumpMessage } from './dump.ts';
import type { TelegramState } from './state.ts';
import { callOptions, ChatId, deliveryParams, ParseMode, parseModeOf, Timeout } from './state.ts';

/**
 * `chat.telegram.send_message`: Platypush's arguments; answers the sent message in Platypush's
 * shape.
 *
 * @example
 * await run('chat.telegram.send_message', { chat_id: 1111111, text: 'The door is open' });
 * // {message_id: 1366, chat_id: 1111111, text: 'The door is open', creation_date: '2026-...', ...}
 */
export const sendMessage = defineAction({
  name: 'send_message',
  summary: 'Sends a text message to a chat.',
  params: {
    chat_id: ChatId,
    text: z.string().min(1).max(4096).describe('the text, 1-4096 characters'),
    parse_mode: ParseMode,
    disable_web_page_preview: z
      .boolean()
      .default(false)
      .describe('no preview of the links in the text'),
    disable_notification: z
      .boolean()
      .default(false)
      .describe('deliver silently: the users get no notification sound'),
    reply_to_message_id: z
      .number()
      .int()
      .optional()
      .describe('send it as a reply to this message of the chat'),
    timeout: Timeout,
  },
  run: async (args, { state, signal }: { state: TelegramState; signal: AbortSignal }) => {
    state.link.check();
    const sent = await state.api.call<TgMessage>(
      'sendMessage',
      {
        chat_id: args.chat_id,
        text: args.text,
        parse_mode: parseModeOf(args.parse_mode),
        ...(args.disable_web_page_preview ? { link_preview_options: { is_disabled: true } } : {}),
        ...deliveryParams(args),
      },
      callOptions(args.timeout, signal),
    );
    return dumpMessage(sent);
  },
});
