import { defineAction } from '../api/index.ts';
import type { TgUser } from './dump.ts';
import { dumpUser } from './dump.ts';
import type { TelegramState } from './state.ts';
import { callOptions } from './state.ts';

/**
 * `chat.telegram.get_me`: the bot itself (the Bot API's getMe), in Platypush's user shape; a way to
 * check the token.
 *
 * @example
 * await run('chat.telegram.get_me'); // {user_id: 123456, username: 'my_bot', is_bot: true, ...}
 */
export const getMe = defineAction({
  name: 'get_me',
  summary: 'The bot itself: its id, username and name (checks the token).',
  params: {},
  run: async (_args, { state, signal }: { state: TelegramState; signal: AbortSignal }) => {
    state.link.check();
    const me = await state.api.call<TgUser>('getMe', {}, callOptions(undefined, signal));
    const { can_join_groups, can_read_all_group_messages, supports_inline_queries } = me;
    return {
      ...dumpUser(me),
      can_join_groups: can_join_groups ?? null,
      can_read_all_group_messages: can_read_all_group_messages ?? null,
      supports_inline_queries: supports_inline_queries ?? null,
    };
  },
});
