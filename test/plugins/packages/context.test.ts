// What a plugin package gets from Pipit is the documented list and nothing more: no database, no
// HTTP server, no other plugin's state, not even through the objects it is handed.
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/service.ts';
import { startService, writePackage } from './fixtures.ts';

const PROBE = `
import { definePlugin, defineAction, z } from 'pipit';
const seen = {};
const describe = (ctx) => Object.fromEntries(Object.keys(ctx).sort().map((k) => [k, typeof ctx[k]]));
export default definePlugin({
  name: 'probe',
  summary: 'Reports what it was given.',
  config: z.strictObject({ level: z.number().default(1) }),
  init: (ctx) => { seen.init = describe(ctx); seen.kv = Object.keys(ctx.kv).sort(); seen.kvProto = Object.getPrototypeOf(Object.getPrototypeOf(ctx.kv)) === null; seen.config = ctx.config; return { secret: 'mine' }; },
  actions: [defineAction({
    name: 'report', summary: 'What init and this action got.', params: {},
    run: (_args, ctx) => ({ ...seen, action: describe(ctx), user: ctx.user, state: ctx.state }),
  })],
});
`;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

describe('the plugin context', () => {
  it('holds the documented members only', async () => {
    const t = tempDir('pipit-context-');
    cleanup.push(async () => t.cleanup());
    writePackage(t.dir, 'pipit-plugin-probe', { index: PROBE });
    const service = await startService(t.dir, 'plugins: [pipit-plugin-probe]\nprobe: {level: 3}');
    cleanup.push(() => service.close());
    const result = await service.execute(
      { type: 'request', action: 'probe.report', args: {} },
      { transport: 'test', caller: { user: 'ada', via: 'token' } },
    );
    expect(result.error).toBeUndefined();
    expect(result.message.response.output).toEqual({
      init: {
        config: 'object',
        fire: 'function',
        kv: 'object',
        log: 'object',
        run: 'function',
        setStatus: 'function',
        signal: 'object',
      },
      // The key-value store is three calls on a plain frozen object: no handle behind it.
      kv: ['delete', 'get', 'set'],
      kvProto: true,
      config: { level: 3 },
      action: {
        fire: 'function',
        kv: 'object',
        log: 'object',
        run: 'function',
        signal: 'object',
        state: 'object',
        user: 'string',
      },
      user: 'ada',
      state: { secret: 'mine' },
    });
  });
});
