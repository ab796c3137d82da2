import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAction, definePlugin } from '../../src/core/action.ts';
import { coerceValue } from '../../src/lib/coerce.ts';
import { createExecute, MAX_PROCEDURE_DEPTH } from '../../src/core/execute.ts';
import { createLogger } from '../../src/core/logger.ts';
import { compileActions, Registry } from '../../src/core/registry.ts';
import type { Services } from '../../src/core/services.ts';

const music = definePlugin({
  name: 'music.fake',
  aliases: ['music.streaming'],
  summary: 'A fake music plugin.',
  actions: [
    defineAction({
      name: 'set_volume',
      summary: 'Sets the volume.',
      params: {
        volume: z.number().int().min(0).max(100).describe('percentage 0 to 100'),
        device: z.string().nullable().optional().describe('device id or name'),
      },
      run: ({ volume }) => ({ volume }),
    }),
    defineAction({
      name: 'search',
      summary: 'Searches.',
      params: { limit: z.number().int().default(50), random: z.boolean().optional() },
      extraArgs: true,
      run: (args) => args,
    }),
    defineAction({
      name: 'anything',
      summary: 'Takes any arguments.',
      params: {},
      extraArgs: true,
      run: (args) => args,
    }),
    defineAction({
      name: 'later',
      summary: 'Answers, or fails, after a tick; logs through its context.',
      params: { fail: z.boolean().default(false) },
      run: async ({ fail }, ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        ctx.log.warn('about to answer');
        if (fail) throw new Error('failed later');
        return { later: true };
      },
    }),
    defineAction({
      name: 'boom',
      summary: 'Fails.',
      params: {},
      run: () => {
        throw new Error('upstream said no');
      },
    }),
  ],
});

function setup(log = createLogger({ level: 'silent' })) {
  const registry = new Registry([music]);
  registry.addPlugin({ def: music, config: {}, state: undefined, actions: compileActions(music) });
  const services = {} as Services;
  const execute = createExecute({ registry, deviceId: 'dev', log, services: () => services });
  services.execute = execute;
  return { registry, execute };
}

const call = (execute: ReturnType<typeof setup>['execute'], action: string, args?: unknown) =>
  execute({ type: 'request', action, args }, { transport: 'test' });

describe('execute()', () => {
  it('resolves dotted plugin names and aliases to the same action', async () => {
    const { execute } = setup();
    const a = await call(execute, 'music.fake.set_volume', { volume: 30 });
    const b = await call(execute, 'music.streaming.set_volume', { volume: '30' });
    expect(a.message.response.output).toEqual({ volume: 30 });
    expect(b.message.response.output).toEqual({ volume: 30 });
  });

  it('applies defaults and passes declared extras through', async () => {
    const { execute } = setup();
    const res = await call(execute, 'music.streaming.search', { artist: 'Nina', random: 'true' });
    expect(res.message.response.output).toEqual({ limit: 50, artist: 'Nina', random: true });
  });

  it('names the argument, its description, the bad value and the range', async () => {
    const { execute } = setup();
    const res = await call(execute, 'music.fake.set_volume', { volume: 150 });
    expect(res.error?.code).toBe('INVALID_ARGUMENTS');
    expect(res.message.response.errors[0]).toMatch(
      /music\.fake\.set_volume: argument "volume" \(percentage 0 to 100\): .*100.*; got 150/,
    );
  });

  it("names arguments that an in-process caller made unreadable as that caller's mistake", async () => {
    const { execute } = setup();
    const getter = Object.defineProperty({}, 'volume', {
      enumerable: true,
      get() {
        throw new Error('no volume today');
      },
    });
    const res = await call(execute, 'music.fake.set_volume', getter);
    expect(res.error?.code).toBe('INVALID_ARGUMENTS');
    expect(res.message.response.errors[0]).toBe(
      'music.fake.set_volume: argument "volume" could not be read (no volume today); pass plain values: text, numbers, booleans, lists and objects',
    );
    const unlistable = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    const all = await call(execute, 'music.fake.set_volume', unlistable);
    expect(all.error?.code).toBe('INVALID_ARGUMENTS');
    expect(all.message.response.errors[0]).toMatch(
      /^music\.fake\.set_volume: the arguments could not be read \(no keys\)/,
    );
  });

  it('passes the arguments of an action that declares none but takes extras through as sent', async () => {
    const { execute } = setup();
    const args = { text: 'hi', n: '2', nested: { deep: [1, null] } };
    const res = await call(execute, 'music.fake.anything', args);
    expect(res.error).toBeUndefined();
    expect(res.message.response.output).toEqual(args);
    const none = await call(execute, 'music.fake.boom', { x: 1 });
    expect(none.error?.code).toBe('INVALID_ARGUMENTS');
    expect(none.message.response.errors[0]).toMatch(/unknown argument "x"; it takes no arguments/);
  });

  it('answers asynchronous actions and their failures like synchronous ones, logging as the action', async () => {
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    const { execute } = setup(createLogger({ level: 'warn', destination: sink }));
    const ok = await call(execute, 'music.fake.later');
    expect(ok.message.response).toEqual({ output: { later: true }, errors: [] });
    const failed = await execute(
      { type: 'request', id: 'x1', action: 'music.fake.later', args: { fail: true } },
      { transport: 'test' },
    );
    expect(failed.error?.code).toBe('ACTION_FAILED');
    expect(failed.message.id).toBe('x1');
    expect(failed.message.response.errors).toEqual(['failed later']);
    await expect.poll(() => lines.join('')).toContain('failed later');
    const own = lines.map((l) => JSON.parse(l) as { msg: string; action?: string });
    expect(own.filter((l) => l.msg === 'about to answer').map((l) => l.action)).toEqual([
      'music.fake.later',
      'music.fake.later',
    ]);
  });

  it('turns an exception inside the action into ACTION_FAILED with its message', async () => {
    const { execute } = setup();
    const res = await call(execute, 'music.fake.boom');
    expect(res.error?.code).toBe('ACTION_FAILED');
    expect(res.message.response).toEqual({
      output: { success: false },
      errors: ['upstream said no'],
    });
  });

  it('stops procedures that call themselves', async () => {
    const { registry, execute } = setup();
    registry.addProcedure({
      name: 'loop',
      params: [],
      summary: 'calls itself',
      source: 'test',
      run: async (_args, ctx) => {
        const r = await execute(
          { type: 'request', action: 'procedure.loop' },
          { transport: 'test', depth: ctx.depth },
        );
        if (r.error) throw r.error;
        return r.message.response.output;
      },
    });
    const res = await call(execute, 'procedure.loop');
    expect(res.message.response.errors[0]).toContain(`deeper than ${MAX_PROCEDURE_DEPTH}`);
  });

  it('lists the catalog with JSON Schema, defaults and descriptions from the same definitions', () => {
    const { registry } = setup();
    const [plugin] = registry.catalog();
    const vol = plugin!.actions.find((a) => a.name === 'music.fake.set_volume')!;
    expect(vol.params).toMatchObject({
      type: 'object',
      required: ['volume'],
      properties: {
        volume: { type: 'integer', minimum: 0, maximum: 100, description: 'percentage 0 to 100' },
      },
    });
    const search = plugin!.actions.find((a) => a.name === 'music.fake.search')!;
    expect(search.extraArgs).toBe(true);
    expect((search.params.properties as Record<string, { default?: unknown }>).limit!.default).toBe(
      50,
    );
  });
});

describe('coercion', () => {
  it.each([
    [z.number(), '50', 50],
    [z.number(), ' 2.5 ', 2.5],
    [z.number(), '1e3', 1000],
    [z.number(), 'fifty', 'fifty'],
    [z.number(), '', ''],
    [z.boolean(), 'true', true],
    [z.boolean(), 'FALSE', false],
    [z.boolean(), 'yes', 'yes'],
    [z.string(), '50', '50'],
    [z.union([z.string(), z.number()]), '50', '50'],
    [z.number().nullable().optional(), '7', 7],
    [z.array(z.number()), '7', '7'],
  ])('%# coerces only where a number or boolean is the only reading', (schema, input, expected) => {
    expect(coerceValue(schema, input)).toEqual(expected);
  });
});

describe('secret parameters in error messages', () => {
  it('never quotes a secret argument back, even of the wrong type', async () => {
    const { z } = await import('zod');
    const { defineAction, definePlugin, secret } = await import('../../src/core/action.ts');
    const { Registry, compileActions } = await import('../../src/core/registry.ts');
    const { createExecute } = await import('../../src/core/execute.ts');
    const { createLogger } = await import('../../src/core/logger.ts');
    const login = defineAction({
      name: 'login',
      summary: 'Takes a password.',
      params: { password: secret(z.string().describe('the password')) },
      run: () => 'ok',
    });
    const def = definePlugin({ name: 'vault', summary: 'Test.', actions: [login] });
    const registry = new Registry([def]);
    registry.addPlugin({ def, config: {}, state: undefined, actions: compileActions(def) });
    const execute = createExecute({
      registry,
      deviceId: 'test',
      log: createLogger({ level: 'silent' }),
      services: () => ({}) as never,
    });
    const { message } = await execute(
      { type: 'request', action: 'vault.login', args: { password: 12345678 } },
      { transport: 'cli' },
    );
    expect(message.response.errors[0]).toMatch(/argument "password".*not shown: it is secret/);
    expect(message.response.errors[0]).not.toContain('12345678');
  });
});
