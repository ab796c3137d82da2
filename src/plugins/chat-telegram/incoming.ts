import type { TgChat, TgMessage } from './dump.ts';
import { dumpMessage, dumpUser } from './dump.ts';

/** An event to raise for an incoming message. */
export interface IncomingEvent {
  kind: string;
  fields: Record<string, unknown>;
}

// `/command`, optionally `@botname`, then the arguments. Platypush's pattern without its two
// slips: "@botname" (how commands are written in groups) is not taken as the first argument, and
// arguments on later lines are kept.
const COMMAND = /^\s*\/([0-9a-zA-Z_-]+)(?:@(\w+))?(?:\s+([\s\S]*))?$/;

/**
 * A command's name and arguments, or undefined when the text is not a command for this bot (no
 * leading "/", or "/cmd@otherbot").
 *
 * @example
 * parseCommand('/lights@pipit_bot on kitchen', 'pipit_bot'); // { command: 'lights', cmdargs: ['on', 'kitchen'] }
 */
export function parseCommand(
  text: string,
  botUsername: string | undefined,
): { command: string; cmdargs: string[] } | undefined {
  const m = COMMAND.exec(text);
  if (!m) return undefined;
  const [, command, addressee, rest] = m;
  if (addressee && botUsername && addressee.toLowerCase() !== botUsername.toLowerCase())
    return undefined;
  return {
    command: command!.toLowerCase(),
    cmdargs: (rest ?? '').split(/\s+/).filter(Boolean),
  };
}

/**
 * The event Platypush raises for a message, by what it holds (in Platypush's order): a group
 * created, a photo, video, contact, location, document, then a command or a text. Other messages
 * (stickers, voice...) raise none, as in Platypush.
 *
 * @example
 * toEvent(update.message, 'pipit_bot'); // { kind: 'TextMessageEvent', fields: { chat_id, message, user } }
 */
export function toEvent(message: TgMessage, botUsername?: string): IncomingEvent | undefined {
  const fields = {
    chat_id: message.chat.id,
    message: dumpMessage(message),
    user: message.from ? dumpUser(message.from) : null,
  };
  const kind = message.group_chat_created
    ? 'GroupChatCreatedEvent'
    : message.photo?.length
      ? 'PhotoMessageEvent'
      : message.video
        ? 'VideoMessageEvent'
        : message.contact
          ? 'ContactMessageEvent'
          : message.location
            ? 'LocationMessageEvent'
            : message.document
              ? 'DocumentMessageEvent'
              : undefined;
  if (kind) return { kind, fields };
  if (typeof message.text !== 'string') return undefined;
  const command = parseCommand(message.text, botUsername);
  return command
    ? { kind: 'CommandMessageEvent', fields: { ...fields, ...command } }
    : { kind: 'TextMessageEvent', fields };
}

/**
 * Whether a chat may raise events, by `authorized_chat_ids`: its id, or its @username (public
 * groups and channels). Empty: every chat. Ids match whether written as numbers or text.
 *
 * @example
 * authorizer([1111111, '@my_channel'])({ id: 1111111, type: 'private' }); // true
 */
export function authorizer(ids: ReadonlyArray<number | string>): (chat: TgChat) => boolean {
  if (!ids.length) return () => true;
  const numbers = new Set<number>();
  const usernames = new Set<string>();
  for (const id of ids) {
    if (typeof id === 'number') numbers.add(id);
    else if (id.startsWith('@')) usernames.add(id.slice(1).toLowerCase());
    else numbers.add(Number(id));
  }
  return (chat) =>
    numbers.has(chat.id) || (!!chat.username && usernames.has(chat.username.toLowerCase()));
}
