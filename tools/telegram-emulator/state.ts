import { randomBytes } from 'node:crypto';

/** The Bot API's User object (https://core.telegram.org/bots/api#user). */
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

/** The Bot API's Chat object (https://core.telegram.org/bots/api#chat). */
export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/** A Message (https://core.telegram.org/bots/api#message): the fields the emulator fills. */
export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  date: number;
  [field: string]: unknown;
}

/** An Update (https://core.telegram.org/bots/api#update). */
export interface TgUpdate {
  update_id: number;
  [kind: string]: unknown;
}

/** A file the emulator holds, by file_id: what sendPhoto/sendDocument answered for it. */
export interface StoredFile {
  kind: 'photo' | 'document';
  /** For a photo: all its sizes (resending one file_id sends them all); for a document: itself. */
  object: unknown;
}

/** Everything the emulated server keeps; a restart keeps it, as Telegram's servers do. */
export interface EmulatorState {
  token: string;
  bot: TgUser;
  chats: Map<number, TgChat>;
  /** Messages by `<chat id>:<message id>`, for replies. */
  messages: Map<string, TgMessage>;
  nextMessageId: number;
  files: Map<string, StoredFile>;
}

/** The example token of the Bot API page ("Authorizing your bot"). */
export const DOCS_TOKEN = '123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11';

/**
 * The private chat of the webhooks guide's update examples
 * (https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates).
 */
export const TEST_CHAT: TgChat = {
  id: 1111111,
  type: 'private',
  first_name: 'Test Firstname',
  last_name: 'Test Lastname',
  username: 'Testusername',
};

/** The user of that chat. */
export const TEST_USER: TgUser = {
  id: 1111111,
  is_bot: false,
  first_name: 'Test Firstname',
  last_name: 'Test Lastname',
  username: 'Testusername',
};

/** A fresh state: the bot of `token`, and the guide's test chat. */
export function seedState(token = DOCS_TOKEN): EmulatorState {
  return {
    token,
    bot: {
      id: Number(token.split(':')[0]) || 123456,
      is_bot: true,
      first_name: 'Pipit Test Bot',
      username: 'pipit_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    },
    chats: new Map([[TEST_CHAT.id, { ...TEST_CHAT }]]),
    messages: new Map(),
    nextMessageId: 1365,
    files: new Map(),
  };
}

/** A new file_id / file_unique_id pair, shaped like Telegram's (opaque base64url text). */
export function newFileIds(prefix: string): { file_id: string; file_unique_id: string } {
  return {
    file_id: `${prefix}${randomBytes(24).toString('base64url')}`,
    file_unique_id: `AQAD${randomBytes(8).toString('base64url')}`,
  };
}

/** Current Unix time, as Message.date has it. */
export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
