import { afterEach, describe, expect, it } from 'vitest';
import { makeEvent } from '../../src/events/event.ts';
import { HookBusyError, Hooks, MAX_RUNNING_PER_HOOK } from '../../src/events/hooks.ts';
import type { Hook } from '../../src/events/hooks.ts';
import { parseExposition, sample } from '../helpers/prometheus.ts';
import { captureLog, makeApp } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

const event = () =>
  makeEvent('pipit.message.event.custom.CustomEvent', { subtype: 'storm' }, 'test');

// A hook whose runs wait until released, as a hook waiting on a slow device would.
function waitingHook(name: string) {
  const waiting: Array<() => void> = [];
  const hook: Hook = {
    name,
    source: 'test',
    matches: () => true,
    run: () => new Promise<string>((resolve) => waiting.push(() => resolve('done'))),
  };
  return { hook, releaseAll: () => waiting.splice(0).forEach((release) => release()) };
}

describe('runs of one hook going at once', () => {
  it('skips an event for a hook at its cap, logs it once per burst, and runs again once below', async () => {
    const { log, lines } = captureLog('warn');
    const hooks = new Hooks(log, undefined, 2);
    const slow = waitingHook('Slow');
    const other = waitingHook('Other');
    const first = [hooks.runOne(slow.hook, event(), { signal: new AbortController().signal })];
    first.push(hooks.runOne(slow.hook, event(), { signal: new AbortController().signal }));
    expect(hooks.runningOf('Slow')).toBe(2);

    const skipped = await hooks.runOne(slow.hook, event(), { signal: AbortSignal.abort() });
    const again = await hooks.runOne(slow.hook, event(), { signal: AbortSignal.abort() });
    expect(skipped.ok).toBe(false);
    const error = !skipped.ok ? skipped.error : undefined;
    expect(error).toBeInstanceOf(HookBusyError);
    expect(error).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('hook Slow already has 2 runs going'),
    });
    expect(again.ok).toBe(false);
    // Another hook is not held back by this one's cap.
    const otherRun = hooks.runOne(other.hook, event(), { signal: new AbortController().signal });
    expect(hooks.runningOf('Other')).toBe(1);

    await new Promise((resolve) => setImmediate(resolve));
    const warnings = lines.filter((l) => String(l.msg).includes('already has 2 runs going'));
    expect(warnings).toHaveLength(1); // the second skip, moments later, is counted, not logged
    expect(warnings[0]).toMatchObject({ hook: 'Slow', skipped: 1 });

    slow.releaseAll();
    other.releaseAll();
    expect((await Promise.all(first)).map((o) => o.ok)).toEqual([true, true]);
    expect((await otherRun).ok).toBe(true);
    expect(hooks.runningOf('Slow')).toBe(0);
    const next = hooks.runOne(slow.hook, event(), { signal: new AbortController().signal });
    expect(hooks.runningOf('Slow')).toBe(1);
    slow.releaseAll();
    expect(await next).toMatchObject({ ok: true, value: 'done' });
  });
});

// The real cap, through a web hook: its caller gets 503 (try later), not a 500.
const GATE_SCRIPT = `import { hook } from 'pipit';
const waiting = [];
globalThis.releaseGate = () => waiting.splice(0).forEach((release) => release());
hook('WebhookEvent', { hook: 'gate' }, () => new Promise((resolve) => {
  waiting.push(() => resolve({ passed: true }));
  if (waiting.length === ${MAX_RUNNING_PER_HOOK}) globalThis.onAllWaiting?.();
}));
`;

describe('a web hook at its cap', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it(`answers 503 past ${MAX_RUNNING_PER_HOOK} runs going, and every run going its own answer`, async () => {
    t = await makeApp('', {
      scripts: { 'gate.mjs': GATE_SCRIPT },
      http: { hook_timeout_seconds: 60 },
    });
    const g = globalThis as { releaseGate?: () => void; onAllWaiting?: () => void };
    const allWaiting = new Promise<void>((resolve) => (g.onAllWaiting = resolve));
    const app = t.app;
    const going = Array.from({ length: MAX_RUNNING_PER_HOOK }, () =>
      app.inject({ method: 'GET', url: '/hook/gate' }),
    );
    await allWaiting;

    const refused = await app.inject({ method: 'GET', url: '/hook/gate' });
    expect(refused.statusCode).toBe(503);
    const { response } = refused.json<{ response: { errors: string[] } }>();
    expect(response.errors[0]).toMatch(
      new RegExp(
        `^hook gate#0 already has ${MAX_RUNNING_PER_HOOK} runs going: this event was skipped`,
      ),
    );

    const metrics = parseExposition(await t.service.metrics!.scrape());
    expect(sample(metrics, 'pipit_hook_runs_total', { hook: 'gate#0', outcome: 'skipped' })).toBe(
      1,
    );

    g.releaseGate?.();
    const answers = await Promise.all(going);
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
    expect(answers[0]!.json()).toEqual({ passed: true });
    // Below the cap again: the next call runs.
    const after = app.inject({ method: 'GET', url: '/hook/gate' });
    await new Promise((resolve) => setImmediate(resolve));
    g.releaseGate?.();
    expect((await after).statusCode).toBe(200);
    delete g.releaseGate;
    delete g.onAllWaiting;
  });
});
