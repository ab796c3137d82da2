import type { Answer } from './api.ts';
import { fail } from './api.ts';
import type { UploadedFile } from './params.ts';
import type { EmulatorState, TgChat, TgMessage, TgUpdate, TgUser } from './state.ts';
import { TEST_CHAT, TEST_USER, unixNow } from './state.ts';
import type { UpdateQueue } from './updates.ts';

/** One request the emulator answered (or was asked while stalled). */
export interface Call {
  method: string;
  at: number;
  /** The parameters, as read (form values as text). */
  params: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  /** The HTTP status it was answered with (0: not answered, stalled). */
  status: number;
  /** When it was answered (ms). */
  answeredAt?: number;
}

/** A failure to answer with instead of the method's result. */
export interface Fault {
  error_code: number;
  description?: string;
  retry_after?: number;
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden: bot was blocked by the user',
  404: 'Not Found',
  409: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

/** What a user's incoming message is made of (the rest is filled in). */
export interface IncomingMessage {
  text?: string;
  chat?: Partial<TgChat> & { id?: number };
  from?: Partial<TgUser>;
  [field: string]: unknown;
}

/**
 * The test side of the emulator: messages from users, failures, stalls, and what the bot sent.
 *
 * @example
 * emu.control.userMessage({ text: '/lights on' });
 * emu.control.fail('sendMessage', { error_code: 429, retry_after: 1 });
 */
export class TelegramControl {
  /** Every Bot API request, in order. */
  readonly calls: Call[] = [];
  readonly state: EmulatorState;
  readonly queue: UpdateQueue;
  private readonly faults: Array<{ method: string; fault: Fault; left: number }> = [];
  /** Methods (lower case, `*` for all) whose requests get no answer until unstalled. */
  readonly stalled = new Set<string>();
  /** Stops the server once a getUpdates has delivered updates, before they can be confirmed. */
  dieAfterDelivery = false;
  /** Called when a stall ends (the server drops the requests it held). */
  onUnstall: () => void = () => {};

  constructor(state: EmulatorState, queue: UpdateQueue) {
    this.state = state;
    this.queue = queue;
  }

  /** The calls of one method (case-insensitive). */
  callsOf(method: string): Call[] {
    return this.calls.filter((c) => c.method.toLowerCase() === method.toLowerCase());
  }

  /** The messages the bot sent, in order. */
  sent(): TgMessage[] {
    return [...this.state.messages.values()].filter((m) => m.from?.id === this.state.bot.id);
  }

  /**
   * A message a user sends the bot: an Update of kind `message` (`channel_post` for a channel),
   * by default from the webhooks guide's test user in their private chat.
   */
  userMessage(message: IncomingMessage): TgUpdate | undefined {
    const { chat: chatFields, from: fromFields, ...content } = message;
    const chat: TgChat = {
      ...(chatFields?.id === undefined ? TEST_CHAT : { type: 'private' }),
      ...chatFields,
    } as TgChat;
    this.state.chats.set(chat.id, chat);
    const from =
      chat.type === 'channel'
        ? undefined
        : {
            ...TEST_USER,
            ...(chat.type === 'private' ? { id: chat.id } : {}),
            ...fromFields,
          };
    const stored: TgMessage = {
      message_id: this.state.nextMessageId++,
      ...(from ? { from } : {}),
      chat,
      date: unixNow(),
      ...content,
    };
    this.state.messages.set(`${chat.id}:${stored.message_id}`, stored);
    return this.queue.push({ [chat.type === 'channel' ? 'channel_post' : 'message']: stored });
  }

  /** An Update as it is (its update_id kept when it has one): the documentation's examples. */
  pushUpdate(update: Record<string, unknown>): TgUpdate | undefined {
    for (const value of Object.values(update)) {
      const chat = (value as { chat?: TgChat } | null)?.chat;
      if (chat && typeof chat.id === 'number') this.state.chats.set(chat.id, chat);
    }
    return this.queue.push(update);
  }

  /** The next `times` calls of `method` (`*`: any) fail with this error instead. */
  fail(method: string, fault: Fault, times = 1): void {
    this.faults.push({ method: method.toLowerCase(), fault, left: times });
  }

  /** While on, requests of `method` (default all) hang; turning it off drops them. */
  stall(on: boolean, method = '*'): void {
    if (on) this.stalled.add(method.toLowerCase());
    else {
      this.stalled.delete(method.toLowerCase());
      this.onUnstall();
    }
  }

  /** Changes the bot's token: calls with the old one get 401 (the token was revoked). */
  setToken(token: string): void {
    this.state.token = token;
  }

  /** The fault for this call of `method`, if one is pending. */
  takeFault(method: string): Answer | undefined {
    const at = this.faults.findIndex((f) => f.method === '*' || f.method === method.toLowerCase());
    if (at < 0) return undefined;
    const entry = this.faults[at]!;
    if (--entry.left <= 0) this.faults.splice(at, 1);
    const { error_code: code, retry_after: after } = entry.fault;
    const description =
      entry.fault.description ??
      (code === 429 && after !== undefined
        ? `Too Many Requests: retry after ${after}`
        : (DESCRIPTIONS[code] ?? 'Internal Server Error'));
    return fail(code, description, after);
  }

  isStalled(method: string): boolean {
    return this.stalled.has('*') || this.stalled.has(method.toLowerCase());
  }
}
