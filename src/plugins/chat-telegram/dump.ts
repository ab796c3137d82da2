// Telegram's objects in the shapes Platypush's chat.telegram answers and raises (its
// TelegramMessageSchema and TelegramUserSchema), so that procedures written for it read the same
// fields.

/** A Bot API User (https://core.telegram.org/bots/api#user). */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  can_join_groups?: boolean;
  can_read_all_group_messages?: boolean;
  supports_inline_queries?: boolean;
}

/** A Bot API Chat. */
export interface TgChat {
  id: number;
  type: string;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

interface TgFile {
  file_id: string;
  file_size?: number;
  [field: string]: unknown;
}

/** A Bot API Message: the fields Platypush reads. */
export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  text?: string;
  caption?: string;
  edit_date?: number;
  forward_date?: number;
  forward_from_message_id?: number;
  forward_origin?: { date?: number; message_id?: number };
  media_group_id?: string;
  group_chat_created?: boolean;
  photo?: TgFile[];
  document?: TgFile;
  audio?: TgFile;
  video?: TgFile;
  location?: { latitude: number; longitude: number };
  contact?: {
    phone_number: string;
    first_name: string;
    last_name?: string;
    user_id?: number;
    vcard?: string;
  };
}

/** A Unix time as Python's isoformat() writes an aware UTC datetime: 2015-09-07T17:05:32+00:00. */
export function isoDate(unix: number | undefined): string | null {
  if (typeof unix !== 'number') return null;
  return new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

// python-telegram-bot's Message.link: only messages of supergroups and channels have one.
function messageLink(message: TgMessage): string | null {
  const { chat } = message;
  if (chat.type !== 'supergroup' && chat.type !== 'channel') return null;
  if (chat.username) return `https://t.me/${chat.username}/${message.message_id}`;
  return `https://t.me/c/${String(chat.id).replace(/^-100/, '')}/${message.message_id}`;
}

/**
 * A message as Platypush answers it: `message_id`, `chat_id`, `chat_*`, `from_*`, `text`,
 * `caption`, the dates, and `photo_*` (the largest size), `document_*`, `audio_*`, `video_*`,
 * `location_*`, `contact_*` when the message has them. Dates are full ISO 8601 times (Platypush
 * 1.x cuts them to the day).
 *
 * @example
 * dumpMessage(sent).message_id;
 */
export function dumpMessage(m: TgMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {
    message_id: m.message_id,
    chat_id: m.chat.id,
    chat_username: m.chat.username ?? null,
    chat_firstname: m.chat.first_name ?? null,
    chat_lastname: m.chat.last_name ?? null,
    text: m.text ?? null,
    caption: m.caption ?? null,
    creation_date: isoDate(m.date),
    edit_date: isoDate(m.edit_date),
    forward_date: isoDate(m.forward_origin?.date ?? m.forward_date),
    forward_from_message_id: m.forward_origin?.message_id ?? m.forward_from_message_id ?? null,
    link: messageLink(m),
    media_group_id: m.media_group_id ?? null,
  };
  if (m.from)
    Object.assign(out, {
      from_user_id: m.from.id,
      from_username: m.from.username ?? null,
      from_firstname: m.from.first_name ?? null,
      from_lastname: m.from.last_name ?? null,
    });
  const photo = m.photo?.at(-1);
  if (photo) Object.assign(out, fileFields('photo', photo, ['width', 'height']));
  if (m.document)
    Object.assign(out, fileFields('document', m.document, ['file_name', 'mime_type']));
  if (m.audio)
    Object.assign(
      out,
      fileFields('audio', m.audio, ['mime_type', 'performer', 'title', 'duration']),
    );
  if (m.video)
    Object.assign(out, fileFields('video', m.video, ['width', 'height', 'mime_type', 'duration']));
  if (m.location)
    Object.assign(out, {
      location_latitude: m.location.latitude,
      location_longitude: m.location.longitude,
    });
  if (m.contact)
    Object.assign(out, {
      contact_phone_number: m.contact.phone_number,
      contact_first_name: m.contact.first_name,
      contact_last_name: m.contact.last_name ?? null,
      contact_user_id: m.contact.user_id ?? null,
      contact_vcard: m.contact.vcard ?? null,
    });
  return out;
}

function fileFields(prefix: string, file: TgFile, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [`${prefix}_file_id`]: file.file_id,
    [`${prefix}_file_size`]: file.file_size ?? null,
  };
  for (const key of keys) out[`${prefix}_${key}`] = file[key] ?? null;
  return out;
}

/**
 * A user as Platypush answers it: `user_id` (and `id`, the key Platypush 1.x's schema names),
 * `username`, `is_bot`, `first_name`, `last_name`, `language_code`, `link`.
 *
 * @example
 * dumpUser(message.from).username;
 */
export function dumpUser(u: TgUser): Record<string, unknown> {
  return {
    user_id: u.id,
    id: u.id,
    username: u.username ?? null,
    // Older updates (the webhooks guide's examples) have no is_bot.
    is_bot: u.is_bot === true,
    first_name: u.first_name ?? null,
    last_name: u.last_name ?? null,
    language_code: u.language_code ?? null,
    link: u.username ? `https://t.me/${u.username}` : null,
  };
}
