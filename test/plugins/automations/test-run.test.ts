// automations.test: runs now, or as a dry run lists the steps that would run with their
// arguments evaluated, calling nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestOutput } from '../../../src/plugins/automations/wire.ts';
import { automationsApp, callAs, ok } from './app.ts';

const YAML = `procedure.greet(who, loud=false):
  - action: variable.set
    args: {greeted: '\${who}'}
  - if \${loud}:
      - action: logger.info
        args: {msg: 'HELLO \${who.upper()}'}
  - else:
      - action: logger.info
        args: {msg: 'hello \${who}'}
  - return: done \${who}
event.hook.OnDoor:
  if: {type: CustomEvent, subtype: door}
  then:
    - action: variable.set
      args: {door: '\${args.who}'}
event.hook.Bell:
  if: {type: WebhookEvent, hook: bell}
  then:
    - action: hook.send_response
      args: {body: 'ding \${method}'}
cron.Nightly:
  cron_expression: '0 23 * * *'
  actions:
    - action: variable.set
      args: {night: '\${1 + 1}'}
`;

const SCRIPT = `import { hook } from 'pipit';
hook('CustomEvent', { subtype: 'knock' }, (e) => 'knocked by ' + e.args.who, { name: 'Knock' });
`;

let t: Awaited<ReturnType<typeof automationsApp>>;
beforeAll(async () => {
  t = await automationsApp(YAML, { scripts: { 'k.mjs': SCRIPT } });
});
afterAll(() => t.close());

const variable = async (name: string) =>
  (await ok<Record<string, unknown>>(t, 'variable.get', { name }))[name] ?? null;

describe('automations.test with dry_run', () => {
  it('a procedure: evaluates its conditions and arguments, calls nothing', async () => {
    const out = await ok<TestOutput>(t, 'automations.test', {
      name: 'procedure.greet',
      dry_run: true,
      args: { who: 'ada', loud: true },
    });
    expect(out).toEqual({
      steps: [
        { action: 'variable.set', args: { greeted: 'ada' }, skipped: 'dry run' },
        { action: 'logger.info', args: { msg: 'HELLO ADA' }, skipped: 'dry run' },
      ],
      output: 'done ada',
    });
    expect(await variable('greeted')).toBeNull();
  });

  it('an event hook: says whether the sample event matches, and what would run', async () => {
    const hit = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.OnDoor',
      dry_run: true,
      event: { subtype: 'door', args: { who: 'bob' } },
    });
    expect(hit).toMatchObject({
      matched: true,
      steps: [{ action: 'variable.set', args: { door: 'bob' }, skipped: 'dry run' }],
    });
    const miss = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.OnDoor',
      dry_run: true,
      event: { subtype: 'window' },
    });
    expect(miss).toMatchObject({ matched: false, steps: [] });
    expect(await variable('door')).toBeNull();
  });

  it('a hook without an event given uses the newest event of its kind seen here', async () => {
    await ok(t, 'event.fire', { subtype: 'door', args: { who: 'carol' } });
    await t.service.events.idle();
    const out = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.OnDoor',
      dry_run: true,
    });
    expect(out.steps).toEqual([
      { action: 'variable.set', args: { door: 'carol' }, skipped: 'dry run' },
    ]);
  });

  it('a web hook and a cron', async () => {
    const bell = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.Bell',
      dry_run: true,
    });
    expect(bell).toMatchObject({
      matched: true,
      steps: [{ action: 'hook.send_response', args: { body: 'ding POST' } }],
    });
    const cron = await ok<TestOutput>(t, 'automations.test', {
      name: 'cron.Nightly',
      dry_run: true,
    });
    expect(cron.steps).toEqual([
      { action: 'variable.set', args: { night: 2 }, skipped: 'dry run' },
    ]);
  });

  it('refuses a script automation (its code would run)', async () => {
    const r = await callAs(t, 'automations.test', { name: 'event.hook.Knock', dry_run: true });
    expect(r.reason).toBe('INVALID_ARGUMENTS');
    expect(r.message).toContain('k.mjs');
  });
});

describe('automations.test for real', () => {
  it('runs a procedure with its arguments, recorded as the caller', async () => {
    const out = await ok<TestOutput>(t, 'automations.test', {
      name: 'procedure.greet',
      args: { who: 'eve' },
    });
    expect(out).toMatchObject({ output: 'done eve', run_id: expect.any(String) as string });
    expect(await variable('greeted')).toBe('eve');
    const run = await ok<{ name: string; caller: unknown }>(t, 'runs.get', { id: out.run_id });
    expect(run).toMatchObject({ name: 'procedure.greet', caller: { user: 'ada', via: 'session' } });
  });

  it('fires a hook on a sample event, and a cron', async () => {
    const door = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.OnDoor',
      event: { subtype: 'door', args: { who: 'dan' } },
    });
    expect(door).toMatchObject({ matched: true, run_id: expect.any(String) as string });
    expect(await variable('door')).toBe('dan');
    const run = await ok<{ kind: string; caller: unknown }>(t, 'runs.get', { id: door.run_id });
    expect(run).toMatchObject({ kind: 'hook', caller: { user: 'ada', via: 'session' } });

    const knock = await ok<TestOutput>(t, 'automations.test', {
      name: 'event.hook.Knock',
      event: { subtype: 'knock', args: { who: 'fay' } },
    });
    expect(knock).toMatchObject({ matched: true, output: 'knocked by fay' });

    const bell = await ok<TestOutput>(t, 'automations.test', { name: 'event.hook.Bell' });
    expect(bell).toMatchObject({ matched: true, output: { body: 'ding POST', status: 200 } });

    const cron = await ok<TestOutput>(t, 'automations.test', { name: 'cron.Nightly' });
    expect(cron.run_id).toEqual(expect.any(String));
    expect(await variable('night')).toBe(2);
  });
});
