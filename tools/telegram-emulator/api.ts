import { documentOf, inputFile, photoSizes } from './media.ts';
import type { Params } from './params.ts';
import { BadParams, boolParam, intParam, jsonParam, stringParam } from './params.ts';
import type { EmulatorState, TgChat, TgMessage } from './state.ts';
import { unixNow } from './state.ts';
import type { UpdateQueue } from './updates.ts';

/** An answer in the Bot API's envelope ("Making requests"), with its HTTP status. */
export interface Answer {
  status: number;
  body:
    | { ok: true; result: unknown }
    | {
        ok: false;
        error_code: number;
        description: string;
        parameters?: { retry_after?: number; migrate_to_chat_id?: number };
      };
}

/** `{ok: true, result}`. */
export function ok(result: unknown): Answer {
  return { status: 200, body: { ok: true, result } };
}

/** `{ok: false, error_code, description}` with the same HTTP status; 429 carries retry_after. */
export function fail(code: number, description: string, retryAfter?: number): Answer {
  return {
    status: code,
    body: {
      ok: false,
      error_code: code,
      description,
      ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
    },
  };
}

const PARSE_MODES = new Set(['markdown', 'markdownv2', 'html']);
const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;
const MAX_LIMIT = 100;

function chatOf(state: EmulatorState, value: unknown): TgChat {
  const raw = stringParam(value);
  if (raw === undefined || raw === '') throw new BadParams('Bad Request: chat_id is empty');
  const chat = raw.startsWith('@')
    ? [...state.chats.values()].find(
        (c) => c.username?.toLowerCase() === raw.slice(1).toLowerCase(),
      )
    : state.chats.get(Number(raw));
  if (!chat) throw new BadParams('Bad Request: chat not found');
  return chat;
}

function checkParseMode(value: unknown): void {
  const mode = stringParam(value);
  if (mode && !PARSE_MODES.has(mode.toLowerCase()))
    throw new BadParams(`Bad Request: unsupported parse_mode`);
}

// reply_parameters (ReplyParameters: {message_id, ...}); the deprecated reply_to_message_id too.
function replyTo(state: EmulatorState, params: Params, chat: TgChat): TgMessage | undefined {
  const reply = jsonParam(params.values.reply_parameters, 'reply_parameters') as
    { message_id?: unknown } | undefined;
  const id = intParam(reply?.message_id ?? params.values.reply_to_message_id, 'message_id');
  if (id === undefined) return undefined;
  const original = state.messages.get(`${chat.id}:${id}`);
  if (!original) throw new BadParams('Bad Request: message to be replied not found');
  const { reply_to_message: _nested, ...flat } = original;
  return flat;
}

function send(state: EmulatorState, params: Params, chat: TgChat, content: object): TgMessage {
  const reply = replyTo(state, params, chat);
  const message: TgMessage = {
    message_id: state.nextMessageId++,
    from: { ...state.bot },
    chat: { ...chat },
    date: unixNow(),
    ...(reply ? { reply_to_message: reply } : {}),
    ...content,
  };
  state.messages.set(`${chat.id}:${message.message_id}`, message);
  return message;
}

function caption(params: Params): object {
  checkParseMode(params.values.parse_mode);
  const text = stringParam(params.values.caption);
  if (text === undefined || text === '') return {};
  if (text.length > MAX_CAPTION) throw new BadParams('Bad Request: message caption is too long');
  return { caption: text };
}

function sendMessage(state: EmulatorState, params: Params): Answer {
  const chat = chatOf(state, params.values.chat_id);
  const text = stringParam(params.values.text);
  if (!text?.trim()) throw new BadParams('Bad Request: message text is empty');
  if (text.length > MAX_TEXT) throw new BadParams('Bad Request: message is too long');
  checkParseMode(params.values.parse_mode);
  const preview = jsonParam(params.values.link_preview_options, 'link_preview_options') as
    { is_disabled?: boolean } | undefined;
  const noPreview =
    preview?.is_disabled === true || boolParam(params.values.disable_web_page_preview);
  return ok(
    send(state, params, chat, {
      text,
      ...(noPreview ? { link_preview_options: { is_disabled: true } } : {}),
    }),
  );
}

function sendPhoto(state: EmulatorState, params: Params): Answer {
  const chat = chatOf(state, params.values.chat_id);
  const photo = photoSizes(state, inputFile(params, 'photo'));
  return ok(send(state, params, chat, { photo, ...caption(params) }));
}

function sendDocument(state: EmulatorState, params: Params): Answer {
  const chat = chatOf(state, params.values.chat_id);
  const document = documentOf(state, inputFile(params, 'document'));
  return ok(send(state, params, chat, { document, ...caption(params) }));
}

async function getUpdates(
  queue: UpdateQueue,
  params: Params,
  closed: AbortSignal,
): Promise<Answer> {
  const offset = intParam(params.values.offset, 'offset');
  const limit = Math.min(
    MAX_LIMIT,
    Math.max(1, intParam(params.values.limit, 'limit') ?? MAX_LIMIT),
  );
  const timeout = Math.max(0, intParam(params.values.timeout, 'timeout') ?? 0);
  const allowed = jsonParam(params.values.allowed_updates, 'allowed_updates');
  if (allowed !== undefined) {
    if (!Array.isArray(allowed)) throw new BadParams("Bad Request: can't parse allowed_updates");
    queue.allowed = allowed.map(String);
  }
  queue.confirm(offset);
  if (!queue.ready(limit).length && timeout > 0) {
    const end = await queue.hold(timeout * 1000, closed);
    if (end === 'conflict')
      return fail(
        409,
        'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      );
  }
  return ok(queue.ready(limit));
}

/**
 * Answers one Bot API method (case-insensitive, as the API's are). A bad parameter is the API's
 * 400 `Bad Request: ...`; an unknown method 404 `Not Found`.
 *
 * @example
 * const answer = await handle('sendMessage', state, queue, params, closed);
 */
export async function handle(
  method: string,
  state: EmulatorState,
  queue: UpdateQueue,
  params: Params,
  closed: AbortSignal,
): Promise<Answer> {
  try {
    switch (method.toLowerCase()) {
      case 'getme':
        return ok({ ...state.bot });
      case 'getupdates':
        return await getUpdates(queue, params, closed);
      case 'sendmessage':
        return sendMessage(state, params);
      case 'sendphoto':
        return sendPhoto(state, params);
      case 'senddocument':
        return sendDocument(state, params);
      default:
        return fail(404, 'Not Found');
    }
  } catch (err) {
    if (err instanceof BadParams) return fail(400, err.message);
    throw err;
  }
}
