import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreKinds } from '../../../src/events/kinds.ts';
import type { PipitEvent } from '../../../src/events/event.ts';
import type { RunTree } from '../../../src/plugins/runs/get.ts';
import type { StoredRun } from '../../../src/store/runs.ts';
import { makeApp, registerAndToken } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';

const YAML = `
procedure.greet(name, password=null):
  - action: utils.echo
    args: {text: "hello \${name}"}
  - action: variable.set
    args: {greeted: "\${name}"}
cron.Broken:
  cron_expression: '0 0 1 1 *'
  actions:
    - action: utils.echo
      args: {text: before}
    - action: utils.sleep
      args: {seconds: soon}
event.hook.OnDoor:
  if: {type: CustomEvent, subtype: door}
  then:
    - action: procedure.greet
      args: {name: "\${who}"}
event.hook.Notify:
  if: {type: RunFailedEvent, kind: cron}
  then:
    - action: variable.set
      args: {last_failure: "\${name}"}
`;

async function list(t: TestApp, args: Record<string, unknown> = {}): Promise<StoredRun[]> {
  const { output, errors } = await call(t, 'runs.list', args);
  expect(errors).toEqual([]);
  return (output as { runs: StoredRun[] }).runs;
}

async function tree(t: TestApp, id: string): Promise<RunTree> {
  const { output, errors } = await call(t, 'runs.get', { id });
  expect(errors).toEqual([]);
  return output as RunTree;
}

function nextEvent(t: TestApp, kind: string): Promise<PipitEvent> {
  return new Promise((resolve) => {
    const off = t.service.events.bus.subscribe(({ event }) => {
      if (event.args.type !== kind) return;
      off();
      resolve(event);
    });
  });
}

describe('run history', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await makeApp(YAML);
    token = await registerAndToken(t.app);
  });
  afterAll(() => t.close());

  it('records an /execute call with its caller, transport, outcome and output', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'utils.echo', args: { text: 'recorded' } },
    });
    expect(res.statusCode).toBe(200);
    const [run] = await list(t, { action: 'utils.echo', transport: 'http' });
    expect(run).toMatchObject({
      kind: 'action',
      name: 'utils.echo',
      transport: 'http',
      outcome: 'ok',
      caller: { user: 'ada', via: 'token', token: expect.any(String) as string },
      args: { text: 'recorded' },
      parent_id: null,
      errors: [],
    });
    expect(res.body).not.toContain(run!.caller!.token);
    const detail = await tree(t, run!.id);
    expect(detail.output).toEqual(JSON.parse(res.body).response.output);
  });

  it('records failures that never reached an action: unknown actions and bad arguments', async () => {
    await call(t, 'utils.ecoh', { text: 'x' });
    await call(t, 'utils.sleep', { seconds: 'soon' });
    const failed = await list(t, { outcome: 'failed', transport: 'test' });
    expect(failed.map((r) => [r.name, r.error_code])).toEqual(
      expect.arrayContaining([
        ['utils.ecoh', 'NOT_FOUND'],
        ['utils.sleep', 'INVALID_ARGUMENTS'],
      ]),
    );
    expect(failed.find((r) => r.name === 'utils.ecoh')!.errors[0]).toMatch(/no action "ecoh"/);
  });

  it("records a procedure's steps as its children, with secret arguments masked", async () => {
    const { errors } = await call(t, 'procedure.greet', { name: 'ada', password: 'hunter2' });
    expect(errors).toEqual([]);
    const [run] = await list(t, { action: 'procedure.greet' });
    expect(run).toMatchObject({ kind: 'procedure', steps: 2, outcome: 'ok' });
    expect(run!.args).toEqual({ name: 'ada', password: '[redacted]' });
    const detail = await tree(t, run!.id);
    expect(detail.children.map((c) => [c.name, c.transport, c.outcome])).toEqual([
      ['utils.echo', 'procedure', 'ok'],
      ['variable.set', 'procedure', 'ok'],
    ]);
    expect(detail.children[0]!.output).toEqual({ text: 'hello ada' });
    expect(detail.children.every((c) => c.root_id === run!.id)).toBe(true);
    // Steps are not listed on their own unless asked for.
    expect((await list(t, { action: 'utils.echo' })).some((r) => r.parent_id === run!.id)).toBe(
      false,
    );
    const steps = await list(t, { action: 'utils.echo', include_steps: true });
    expect(steps.some((r) => r.parent_id === run!.id)).toBe(true);
  });

  it('records a hook run caused by an event, linked by the event id, with its nested steps', async () => {
    const event = await t.service.events.emit('CustomEvent', { subtype: 'door', who: 'bob' });
    await t.service.events.idle();
    const runs = await list(t, { event_id: event.id });
    const hookRun = runs.find((r) => r.kind === 'hook')!;
    expect(hookRun).toMatchObject({
      name: 'OnDoor',
      transport: 'hook',
      outcome: 'ok',
      trigger: { hook: 'OnDoor', event_id: event.id, event_type: CoreKinds.CustomEvent },
    });
    const detail = await tree(t, hookRun.id);
    expect(detail.children.map((c) => c.name)).toEqual(['procedure.greet']);
    expect(detail.children[0]!.children.map((c) => c.name)).toEqual(['utils.echo', 'variable.set']);
  });

  it('records a failing cron with its failing step, raises RunFailedEvent, and replays it', async () => {
    const failedEvent = nextEvent(t, CoreKinds.RunFailedEvent);
    expect(await t.service.scheduler.runNow('Broken')).toBe('failed');
    const event = await failedEvent;
    expect(event.args).toMatchObject({
      kind: 'cron',
      name: 'Broken',
      error_code: 'ACTION_FAILED',
      step: { action: 'utils.sleep' },
    });
    await t.service.events.idle();
    // A hook reacted to it (a notification, in real life).
    expect((await call(t, 'variable.get', { name: 'last_failure' })).output).toEqual({
      last_failure: 'Broken',
    });

    const [run] = await list(t, { cron: 'Broken', outcome: 'failed' });
    expect(run).toMatchObject({ kind: 'cron', name: 'Broken', transport: 'cron', steps: 2 });
    expect(event.args.run_id).toBe(run!.id);
    const detail = await tree(t, run!.id);
    expect(detail.children.map((c) => [c.name, c.outcome])).toEqual([
      ['utils.echo', 'ok'],
      ['utils.sleep', 'failed'],
    ]);
    expect(detail.children[1]!.errors.join()).toMatch(/seconds/);

    const replayed = await call(t, 'runs.replay', { id: run!.id });
    expect(replayed.errors).toEqual([]);
    const again = replayed.output as RunTree;
    expect(again).toMatchObject({
      kind: 'cron',
      name: 'Broken',
      outcome: 'failed',
      replay_of: run!.id,
    });
    expect(again.id).not.toBe(run!.id);
    expect(again.children.map((c) => [c.name, c.outcome])).toEqual([
      ['utils.echo', 'ok'],
      ['utils.sleep', 'failed'],
    ]);
  });

  it('replays an action as the calling user and links the new run to the old one', async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'utils.echo', args: { text: 'again' } },
    });
    expect(first.statusCode).toBe(200);
    const [original] = await list(t, { action: 'utils.echo', text: 'again' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/execute',
      headers: { authorization: `Bearer ${token}` },
      payload: { type: 'request', action: 'runs.replay', args: { id: original!.id } },
    });
    const replay = JSON.parse(res.body).response.output as RunTree;
    expect(replay).toMatchObject({
      name: 'utils.echo',
      outcome: 'ok',
      output: { text: 'again' },
      replay_of: original!.id,
      caller: { user: 'ada', via: 'token' },
    });
    // runs.* calls themselves are not recorded (the Runs page polls them).
    expect(await list(t, { action: 'runs.replay', include_steps: true })).toEqual([]);
  });

  it('masks credential keys in stored outputs too (echo returns its arguments)', async () => {
    const { output } = await call(t, 'utils.echo', { text: 'leak?', password: 'hunter2' });
    expect(output).toEqual({ text: 'leak?', password: 'hunter2' });
    const [run] = await list(t, { action: 'utils.echo', text: 'leak?' });
    const detail = await tree(t, run!.id);
    expect(detail.args).toEqual({ text: 'leak?', password: '[redacted]' });
    expect(detail.output).toEqual({ text: 'leak?', password: '[redacted]' });
    expect(
      JSON.stringify(t.service.store.db.prepare('SELECT * FROM run_batches').all()),
    ).not.toContain('hunter2');
  });

  it('refuses to replay a run whose secret arguments were masked, and an unknown run', async () => {
    await call(t, 'procedure.greet', { name: 'eve', password: 'hunter2' });
    const [run] = await list(t, { action: 'procedure.greet', text: 'eve' });
    const refused = await call(t, 'runs.replay', { id: run!.id });
    expect(refused.errors[0]).toMatch(/secret arguments \(password\)/);
    const missing = await call(t, 'runs.get', { id: '12345' });
    expect(missing.errors[0]).toMatch(/no recorded run "12345"/);
  });

  it('replays a hook on a copy of its event, and refuses when the hook is gone', async () => {
    const event = await t.service.events.emit('CustomEvent', { subtype: 'door', who: 'cy' });
    await t.service.events.idle();
    const hookRun = (await list(t, { event_id: event.id })).find((r) => r.kind === 'hook')!;
    const replayed = await call(t, 'runs.replay', { id: hookRun.id });
    expect(replayed.errors).toEqual([]);
    expect(replayed.output).toMatchObject({
      kind: 'hook',
      name: 'OnDoor',
      outcome: 'ok',
      replay_of: hookRun.id,
      args: { subtype: 'door', who: 'cy' },
    });
    expect((replayed.output as RunTree).children.map((c) => c.name)).toEqual(['procedure.greet']);

    const hooks = [...t.service.events.hooks.list()];
    t.service.events.hooks.replaceAll(hooks.filter((h) => h.name !== 'OnDoor'));
    try {
      const refused = await call(t, 'runs.replay', { id: hookRun.id });
      expect(refused.errors[0]).toMatch(/no hook named "OnDoor" any more/);
    } finally {
      t.service.events.hooks.replaceAll(hooks);
    }
  });

  it('filters by time and text, and pages with before', async () => {
    for (let i = 0; i < 5; i++) await call(t, 'utils.echo', { text: `page-${i}` });
    const page1 = await t.service.execute(
      { type: 'request', action: 'runs.list', args: { text: 'page-', limit: 3 } },
      { transport: 'test' },
    );
    const out = page1.message.response.output as { runs: StoredRun[]; next_before: string };
    expect(out.runs.map((r) => r.args.text)).toEqual(['page-4', 'page-3', 'page-2']);
    const page2 = await list(t, { text: 'page-', limit: 3, before: out.next_before });
    expect(page2.map((r) => r.args.text)).toEqual(['page-1', 'page-0']);
    expect(await list(t, { text: 'page-', since: Date.now() / 1000 + 60 })).toEqual([]);
    expect(
      (await list(t, { text: 'page-', until: new Date(Date.now() + 60_000).toISOString() })).length,
    ).toBeGreaterThanOrEqual(5);
    const bad = await call(t, 'runs.list', { since: 'yesterday-ish' });
    expect(bad.errors[0]).toMatch(/"since" must be an ISO 8601 time/);
    // LIKE wildcards in the text are literal.
    expect(await list(t, { text: '%' })).toEqual([]);
  });
});

describe('run history limits', () => {
  it('cuts long outputs, prunes by count, and keeps nothing when recording is off', async () => {
    const t = await makeApp('runs:\n  max_runs: 100\n  max_output_bytes: 256\n');
    try {
      await call(t, 'utils.echo', { text: 'x'.repeat(1000) });
      const [run] = await list(t, { action: 'utils.echo' });
      expect(run!.args).toHaveProperty('_truncated');
      const detail = await tree(t, run!.id);
      expect(detail.output_truncated).toBe(true);
      expect((detail.output as string).length).toBe(256);
      const cut = await call(t, 'runs.replay', { id: run!.id });
      expect(cut.errors[0]).toMatch(/arguments were longer than runs\.max_output_bytes/);
      for (let i = 0; i < 150; i++) await call(t, 'utils.echo', { text: `${i}` });
      await call(t, 'runs.list');
      expect(t.service.store.runs.count()).toBe(151);
      expect(t.service.store.runs.prune({ maxCount: 100, maxAgeMs: 86_400_000 })).toBe(51);
      const kept = await list(t, { limit: 500 });
      expect(kept).toHaveLength(100);
      expect(kept[0]!.args.text).toBe('149');
      expect(t.service.store.runs.prune({ maxCount: 100, maxAgeMs: 0, now: Date.now() + 1 })).toBe(
        100,
      );
    } finally {
      await t.close();
    }

    const off = await makeApp('runs:\n  record: false\n');
    try {
      await call(off, 'utils.echo', { text: 'unrecorded' });
      expect(off.service.store.runs.count()).toBe(0);
      const refused = await call(off, 'runs.list');
      expect(refused.errors[0]).toMatch(/run history is off \(runs\.record: false/);
    } finally {
      await off.close();
    }
  });

  it('refuses a bad runs section at load with the key and what is expected', async () => {
    await expect(makeApp('runs:\n  max_runs: 5\n')).rejects.toThrow(/max_runs/);
  });
});
