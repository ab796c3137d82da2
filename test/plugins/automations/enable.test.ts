// automations.enable / automations.disable: a disabled cron or hook does not fire, and the switch
// survives a reload and a restart on the same workdir.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CronRunResult } from '../../../src/cron/scheduler.ts';
import type { ListOutput } from '../../../src/plugins/automations/wire.ts';
import { logBanner } from '../../../src/app/banner.ts';
import { captureLog, tempDir } from '../../helpers/service.ts';
import { automationsApp, callAs, ok } from './app.ts';

// Six fields, the seconds last: every second.
const CRONS = `cron.Tick:
  cron_expression: '* * * * * *'
  actions: [{action: utils.echo}]
cron.Witness:
  cron_expression: '* * * * * *'
  actions: [{action: utils.echo}]
event.hook.OnDoor:
  if: {type: CustomEvent, subtype: door}
  then: [{action: utils.echo}]
event.hook.Bell:
  if: {type: WebhookEvent, hook: bell}
  then: [{action: utils.echo}]
`;

type App = Awaited<ReturnType<typeof automationsApp>>;

/** Counts the due runs of each job of a started scheduler. */
function watch(t: App) {
  const counts = new Map<string, number>();
  const waiters: { name: string; count: number; resolve: () => void }[] = [];
  t.service.scheduler.onRun((name: string, _result: CronRunResult) => {
    counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const w of waiters.splice(0))
      if ((counts.get(w.name) ?? 0) >= w.count) w.resolve();
      else waiters.push(w);
  });
  t.service.scheduler.start();
  const count = (name: string) => counts.get(name) ?? 0;
  /** Resolves once `name` has run `more` more times than now. */
  const runs = (name: string, more = 1) =>
    new Promise<void>((resolve) => {
      const target = count(name) + more;
      if (count(name) >= target) resolve();
      else waiters.push({ name, count: target, resolve });
    });
  return { count, runs };
}

// While Witness ticks twice (two whole seconds), Tick — due in the same seconds — must not run.
async function assertTickSilent(w: ReturnType<typeof watch>) {
  await w.runs('Witness');
  const before = w.count('Tick');
  await w.runs('Witness', 2);
  expect(w.count('Tick')).toBe(before);
}

let tmp: ReturnType<typeof tempDir>;
let t: App;
beforeEach(async () => {
  tmp = tempDir();
  t = await automationsApp(CRONS, { dir: tmp.dir });
});
afterEach(async () => {
  await t.close();
  tmp.cleanup();
});

describe('automations.disable of a cron', () => {
  it('stops it firing, across a reload and a restart, until enabled again', async () => {
    let w = watch(t);
    await w.runs('Tick');
    expect(await ok(t, 'automations.disable', { name: 'cron.Tick' })).toEqual({
      name: 'cron.Tick',
      enabled: false,
    });
    await assertTickSilent(w);

    await t.service.services.userConfig!.reload();
    await assertTickSilent(w);
    const listed = await ok<ListOutput>(t, 'automations.list', { kind: 'cron' });
    expect(listed.automations.map((a) => [a.name, a.enabled])).toEqual([
      ['cron.Tick', false],
      ['cron.Witness', true],
    ]);

    await t.close();
    t = await automationsApp(CRONS, { dir: tmp.dir });
    w = watch(t);
    await assertTickSilent(w);

    await ok(t, 'automations.enable', { name: 'cron.Tick' });
    await w.runs('Tick');
  });

  it('refuses a procedure, which runs only when called', async () => {
    await ok(t, 'automations.save', { yaml: 'procedure.p:\n  - return: 1\n' });
    const r = await callAs(t, 'automations.disable', { name: 'procedure.p' });
    expect(r.reason).toBe('INVALID_ARGUMENTS');
    expect(r.message).toContain('runs only when called');
  });
});

describe('automations.disable of a hook', () => {
  const hookRuns = async (hook: string) =>
    (await ok<{ runs: unknown[] }>(t, 'runs.list', { hook })).runs.length;

  it('an event hook does not run on its events until enabled', async () => {
    const fire = async () => {
      await ok(t, 'event.fire', { kind: 'CustomEvent', subtype: 'door' });
      await t.service.events.idle();
    };
    await fire();
    expect(await hookRuns('OnDoor')).toBe(1);
    await ok(t, 'automations.disable', { name: 'event.hook.OnDoor' });
    await fire();
    expect(await hookRuns('OnDoor')).toBe(1);
    await ok(t, 'automations.enable', { name: 'event.hook.OnDoor' });
    await fire();
    expect(await hookRuns('OnDoor')).toBe(2);
  });

  it('a web hook answers 404 while disabled', async () => {
    const call = () => t.app.inject({ method: 'POST', url: '/hook/bell', payload: {} });
    expect((await call()).statusCode).toBe(200);
    await ok(t, 'automations.disable', { name: 'event.hook.Bell' });
    expect((await call()).statusCode).toBe(404);
    expect(await hookRuns('Bell')).toBe(1);
  });
});

describe('where a disabled one shows', () => {
  it('inspect.get_hooks, inspect.get_crons and the start banner say it is disabled', async () => {
    await ok(t, 'automations.disable', { name: 'cron.Tick' });
    await ok(t, 'automations.disable', { name: 'event.hook.Bell' });
    const crons = await ok<{ name: string; enabled: boolean; next: string | null }[]>(
      t,
      'inspect.get_crons',
    );
    expect(crons.map((c) => [c.name, c.enabled, c.next === null])).toEqual([
      ['cron.Tick', false, true],
      ['cron.Witness', true, false],
    ]);
    const hooks = await ok<{ name: string; enabled: boolean; webhook: string | null }[]>(
      t,
      'inspect.get_hooks',
    );
    expect(hooks.map((h) => [h.name, h.enabled, h.webhook])).toEqual([
      ['event.hook.OnDoor', true, null],
      ['event.hook.Bell', false, 'bell'],
    ]);
    const { log, lines } = captureLog('info');
    logBanner(log, t.service, 8008);
    const text = lines.map((l) => String(l.msg));
    expect(text).toContain('hooks: OnDoor, Bell (disabled)');
    expect(text.find((l) => l.startsWith('crons: '))).toMatch(
      /^crons: Tick \(disabled\), Witness \(next \d{4}-/,
    );
  });
});
