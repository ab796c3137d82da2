import { defineAction, z } from '../api/index.ts';
import type { TgMessage } from './dump.ts';
import { dumpMessage } from './dump.ts';
import type { FileParam } from './files.ts';
import { fileParam } from './files.ts';
import type { TelegramState } from './state.ts';
import { callOptions, ChatId, deliveryParams, ParseMode, parseModeOf, Timeout } from './state.ts';

// Platypush's file arguments and the options its send_* actions share.
const common = {
  chat_id: ChatId,
  file_id: z.string().min(1).optional().describe('a file already on Telegram (a file_id it gave)'),
  url: z.string().min(1).optional().describe('an http(s) URL Telegram downloads the file from'),
  path: z.string().min(1).optional().describe('a local file, uploaded (~ is your home folder)'),
  caption: z.string().max(1024).optional().describe('a caption, up to 1024 characters'),
  parse_mode: ParseMode,
  disable_notification: z.boolean().default(false).describe('deliver silently'),
  reply_to_message_id: z.number().int().optional().describe('send it as a reply to this message'),
  timeout: Timeout,
};

async function sendFile(
  state: TelegramState,
  method: 'sendPhoto' | 'sendDocument',
  field: string,
  file: FileParam,
  args: z.output<z.ZodObject<typeof common>>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  state.link.check();
  const sent = await state.api.call<TgMessage>(
    method,
    {
      chat_id: args.chat_id,
      ...('value' in file ? { [field]: file.value } : {}),
      caption: args.caption,
      parse_mode: parseModeOf(args.parse_mode),
      ...deliveryParams(args),
    },
    {
      ...callOptions(args.timeout, signal),
      ...('upload' in file ? { files: { [field]: file.upload } } : {}),
    },
  );
  return dumpMessage(sent);
}

/**
 * `chat.telegram.send_photo`: a picture by `file_id`, `url` or local `path` (Platypush's
 * arguments), or by `photo` (any of the three); answers the sent message.
 *
 * @example
 * await run('chat.telegram.send_photo', { chat_id: 1111111, path: '/tmp/door.jpg', caption: 'Door' });
 */
export const sendPhoto = defineAction({
  name: 'send_photo',
  summary: 'Sends a picture (a URL, a file_id, or a local file) to a chat.',
  params: {
    ...common,
    photo: z
      .string()
      .min(1)
      .optional()
      .describe('the picture: an http(s) URL, a local path (/..., ~/..., ./...), or a file_id'),
  },
  run: async (args, { state, signal }: { state: TelegramState; signal: AbortSignal }) =>
    sendFile(
      state,
      'sendPhoto',
      'photo',
      await fileParam('chat.telegram.send_photo', 'photo', args),
      args,
      signal,
    ),
});

/**
 * `chat.telegram.send_document`: any file by `file_id`, `url` or local `path` (uploaded under
 * `filename`), or by `document`; answers the sent message.
 *
 * @example
 * await run('chat.telegram.send_document', { chat_id: 1111111, path: '~/report.pdf' });
 */
export const sendDocument = defineAction({
  name: 'send_document',
  summary: 'Sends a file (a URL, a file_id, or a local file) to a chat.',
  params: {
    ...common,
    document: z
      .string()
      .min(1)
      .optional()
      .describe('the file: an http(s) URL, a local path (/..., ~/..., ./...), or a file_id'),
    filename: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('the name Telegram shows for an uploaded file (default: its own)'),
  },
  run: async (args, { state, signal }: { state: TelegramState; signal: AbortSignal }) =>
    sendFile(
      state,
      'sendDocument',
      'document',
      await fileParam('chat.telegram.send_document', 'document', args, args.filename),
      args,
      signal,
    ),
});
