import { z } from 'zod';
import { defineAction, definePlugin } from '../core/action.ts';
import type { ActionDef } from '../core/action.ts';

const Params = {
  msg: z.string().max(10_000).describe('the message to write to the service log'),
};

function level(name: 'debug' | 'info' | 'warning' | 'error'): ActionDef<typeof Params> {
  const pinoLevel = name === 'warning' ? 'warn' : name;
  return defineAction({
    name,
    summary: `Writes a message to the service log at ${name} level.`,
    params: Params,
    run: ({ msg }, { log }) => {
      log[pinoLevel]({ source: 'logger' }, msg);
    },
  });
}

export default definePlugin({
  name: 'logger',
  summary: 'Writes messages to the service log.',
  enabledByDefault: true,
  actions: [level('debug'), level('info'), level('warning'), level('error')],
});
