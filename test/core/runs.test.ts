import { describe, expect, it } from 'vitest';
import { PipitError } from '../../src/core/errors.ts';
import { RunObservers, RunRecord, runScope } from '../../src/core/runs.ts';
import type { FinishedRun } from '../../src/core/runs.ts';
import { makeEvent } from '../../src/events/event.ts';
import { Hooks } from '../../src/events/hooks.ts';
import type { Hook } from '../../src/events/hooks.ts';
import { captureLog } from '../helpers/service.ts';

function observed() {
  const runs = new RunObservers();
  const seen: FinishedRun[] = [];
  const failures: FinishedRun[] = [];
  runs.add((run) => seen.push(run));
  runs.onTrackedFailure((run) => failures.push(run));
  return { runs, seen, failures };
}

const cron = {
  kind: 'cron' as const,
  name: 'Nightly',
  transport: 'cron',
  trigger: { cron: 'Nightly' },
};

describe('RunObservers.track', () => {
  it('records a run that resolves, with its output and its steps as children', async () => {
    const { runs, seen } = observed();
    const value = await runs.track(cron, async () => {
      await Promise.resolve();
      // A step started inside the run (as execute() does) nests under it.
      new RunRecord(runs, { transport: 'procedure' }).finish(null, [], 'step');
      return { done: true };
    });
    expect(value).toEqual({ done: true });
    expect(seen).toHaveLength(2);
    const [step, run] = seen;
    expect(run).toMatchObject({
      kind: 'cron',
      name: 'Nightly',
      outcome: 'ok',
      output: { done: true },
    });
    expect(run!.trigger).toEqual({ cron: 'Nightly' });
    expect(step).toMatchObject({ parent_id: run!.id, root_id: run!.id, output: 'step' });
    // The settling callback runs outside the run's scope.
    expect(runScope.getStore()).toBeUndefined();
  });

  it('records a rejection with its code and message, and rejects with the same error', async () => {
    const { runs, seen, failures } = observed();
    const boom = new PipitError('TIMEOUT', 'the device did not answer');
    await expect(runs.track(cron, () => Promise.reject(boom))).rejects.toBe(boom);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      outcome: 'failed',
      error_code: 'TIMEOUT',
      errors: ['the device did not answer'],
      output: undefined,
    });
    expect(failures).toEqual(seen);
  });

  it('records a function that throws before returning a promise, as ACTION_FAILED', async () => {
    const { runs, seen } = observed();
    const thrown = new Error('not a promise');
    const pending = runs.track(cron, () => {
      throw thrown;
    });
    // Reported at once, and rejected rather than thrown at the caller.
    expect(seen).toHaveLength(1);
    await expect(pending).rejects.toBe(thrown);
    expect(seen[0]).toMatchObject({
      outcome: 'failed',
      error_code: 'ACTION_FAILED',
      errors: ['not a promise'],
    });
  });
});

describe('Hooks.runOne outcomes', () => {
  const event = () => makeEvent('pipit.message.event.custom.CustomEvent', { subtype: 'x' }, 'test');
  const signal = new AbortController().signal;
  const hookOf = (name: string, run: Hook['run']): Hook => ({
    name,
    source: 'test',
    matches: () => true,
    run,
  });

  it('turns a rejection and a synchronous throw into failed outcomes, logged, the count released', async () => {
    const { log, lines } = captureLog('warn');
    const { runs, seen } = observed();
    const hooks = new Hooks(log, runs);
    const rejecting = hookOf('Rejects', () => Promise.reject(new Error('async failure')));
    const throwing = hookOf('Throws', () => {
      throw new Error('sync failure');
    });
    const [a, b] = await Promise.all([
      hooks.runOne(rejecting, event(), { signal }),
      hooks.runOne(throwing, event(), { signal }),
    ]);
    expect(a).toMatchObject({ ok: false, hook: rejecting, error: { message: 'async failure' } });
    expect(b).toMatchObject({ ok: false, hook: throwing, error: { message: 'sync failure' } });
    expect(hooks.runningOf('Rejects')).toBe(0);
    expect(hooks.runningOf('Throws')).toBe(0);
    expect(
      lines.filter(
        (l) =>
          l.msg === 'hook Rejects failed: async failure' ||
          l.msg === 'hook Throws failed: sync failure',
      ),
    ).toHaveLength(2);
    expect(seen.map((r) => [r.name, r.outcome])).toEqual([
      ['Throws', 'failed'],
      ['Rejects', 'failed'],
    ]);
  });

  it('gives the value of a hook that succeeds, with or without a run history', async () => {
    const { log } = captureLog('warn');
    for (const runs of [observed().runs, undefined]) {
      const hooks = new Hooks(log, runs);
      const hook = hookOf('Answers', () => Promise.resolve(42));
      const pending = hooks.runOne(hook, event(), { signal });
      expect(hooks.runningOf('Answers')).toBe(1);
      expect(await pending).toEqual({ hook, ok: true, value: 42 });
      expect(hooks.runningOf('Answers')).toBe(0);
    }
  });
});
