import { describe, expect, it } from 'vitest';
import { PipitError } from '../core/errors.ts';
import { parseProcedure, parseSteps } from './dsl.ts';
import { runProcedure, runSteps } from './runner.ts';
import type { ActionResult, RunnerDeps } from './runner.ts';

interface Call {
  action: string;
  args: Record<string, unknown>;
}

/** A fake execute that records calls; `respond` decides each answer. */
function fake(respond: (call: Call) => ActionResult | Promise<ActionResult> = () => ok(undefined)) {
  const calls: Call[] = [];
  const deps: RunnerDeps = {
    execute: async (action, args) => {
      const call = { action, args };
      calls.push(call);
      return respond(call);
    },
  };
  return { calls, deps };
}

function ok(output: unknown): ActionResult {
  return { output, errors: [] };
}

async function rejection(promise: Promise<unknown>): Promise<PipitError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(PipitError);
    return err as PipitError;
  }
  throw new Error('expected the run to fail');
}

describe('runProcedure', () => {
  it('passes arguments as variables and returns the last output', async () => {
    const proc = parseProcedure('procedure.morning(volume, device)', [
      { action: 'music.spotify.set_volume', args: { volume: '${volume}', device: '${device}' } },
      { action: 'utils.echo', args: { text: 'v=${volume} extra=${extra}' } },
    ]);
    const { calls, deps } = fake(({ args }) => ok({ echoed: args }));
    const result = await runProcedure(proc, { volume: 40, extra: 'x' }, deps);
    expect(calls).toEqual([
      { action: 'music.spotify.set_volume', args: { volume: 40, device: null } },
      { action: 'utils.echo', args: { text: 'v=40 extra=x' } },
    ]);
    expect(result).toEqual({ echoed: { text: 'v=40 extra=x' } });
  });

  it('exposes output, its keys and errors to later steps', async () => {
    const proc = parseProcedure('procedure.p', [
      { action: 'sensor.read' },
      {
        action: 'log.write',
        args: { t: '${temperature}', o: '${output.temperature}', e: '${errors}' },
      },
    ]);
    const { calls, deps } = fake(({ action }) =>
      ok(action === 'sensor.read' ? { temperature: 21, output: 'hidden' } : null),
    );
    await runProcedure(proc, {}, deps);
    expect(calls[1]!.args).toEqual({ t: 21, o: 21, e: [] });
  });

  it('returns the return: value rather than the last output, and stops there', async () => {
    const proc = parseProcedure('procedure.p', [
      { action: 'a.b' },
      { return: { n: '${output * 2}' } },
      { action: 'never.run' },
    ]);
    const { calls, deps } = fake(() => ok(21));
    expect(await runProcedure(proc, {}, deps)).toEqual({ n: 42 });
    expect(calls.map((c) => c.action)).toEqual(['a.b']);
  });

  it('bare return gives the last output; no action gives undefined', async () => {
    const { deps } = fake(() => ok('last'));
    expect(
      await runSteps(parseSteps([{ action: 'a.b' }, 'return', { action: 'c.d' }], 'p'), {}, deps),
    ).toBe('last');
    expect(await runSteps(parseSteps([{ set: { x: 1 } }], 'p'), {}, deps)).toBeUndefined();
    expect(await runSteps(parseSteps(['return ${x + 1}'], 'p'), { x: 1 }, deps)).toBe(2);
  });

  it('if / elif / else', async () => {
    const steps = parseSteps(
      [
        { 'if ${n > 10}': [{ return: 'big' }] },
        { 'elif ${n > 5}': [{ return: 'medium' }] },
        { else: [{ return: 'small' }] },
      ],
      'procedure.p',
    );
    const { deps } = fake();
    expect(await runSteps(steps, { n: 11 }, deps)).toBe('big');
    expect(await runSteps(steps, { n: 6 }, deps)).toBe('medium');
    expect(await runSteps(steps, { n: 1 }, deps)).toBe('small');
  });

  it('uses Python truthiness for conditions', async () => {
    const steps = parseSteps([{ 'if ${items}': [{ return: 'some' }] }, { return: 'none' }], 'p');
    const { deps } = fake();
    expect(await runSteps(steps, { items: [] }, deps)).toBe('none');
    expect(await runSteps(steps, { items: [0] }, deps)).toBe('some');
  });

  it('for runs sequentially with break and continue', async () => {
    const steps = parseSteps(
      [
        {
          'for x in ${items}': [
            { 'if ${x == 2}': ['continue'] },
            { 'if ${x == 4}': ['break'] },
            { action: 'a.visit', args: { x: '${x}' } },
          ],
        },
        { return: '${x}' },
      ],
      'p',
    );
    const { calls, deps } = fake();
    expect(await runSteps(steps, { items: [1, 2, 3, 4, 5] }, deps)).toBe(4);
    expect(calls.map((c) => c.args.x)).toEqual([1, 3]);
  });

  it('for over an object iterates its keys; a non-iterable is a clear error', async () => {
    const { calls, deps } = fake();
    await runSteps(
      parseSteps([{ 'for k in ${o}': [{ action: 'a.b', args: { k: '${k}' } }] }], 'p'),
      { o: { a: 1, b: 2 } },
      deps,
    );
    expect(calls.map((c) => c.args.k)).toEqual(['a', 'b']);
    const err = await rejection(
      runSteps(parseSteps([{ 'for k in ${n}': [] }], 'procedure.p'), { n: 3 }, deps),
    );
    expect(err.code).toBe('INVALID_ARGUMENTS');
    expect(err.message).toBe('procedure.p step 1: for needs a list or an object, got number');
  });

  it('fork runs iterations concurrently, each on its own context, results in order', async () => {
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const { calls, deps } = fake(async ({ args }) => {
      started++;
      if (started === 3) release();
      // Only resolves once all three iterations are in flight: proves they run in parallel.
      await allStarted;
      return ok(`done ${String(args.d)}`);
    });
    const steps = parseSteps(
      [
        { set: { shared: 'before' } },
        {
          'fork d in ${devices}': [
            { set: { shared: '${d}' } },
            { action: 'music.pause', args: { d: '${d}' } },
            { 'if ${d == "b"}': [{ return: 'b returned' }] },
          ],
        },
        { return: { results: '${output}', shared: '${shared}' } },
      ],
      'p',
    );
    const result = await runSteps(steps, { devices: ['a', 'b', 'c'] }, deps);
    expect(calls).toHaveLength(3);
    expect(result).toEqual({ results: ['done a', 'b returned', 'done c'], shared: 'before' });
  });

  it('fork respects the concurrency bound', async () => {
    let inFlight = 0;
    let peak = 0;
    const { deps } = fake(async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Promise.resolve();
      await Promise.resolve();
      inFlight--;
      return ok(1);
    });
    deps.forkConcurrency = 2;
    const steps = parseSteps([{ 'fork x in ${range(7)}': [{ action: 'a.b' }] }], 'p');
    expect(await runSteps(steps, {}, deps)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(peak).toBe(2);
  });

  it('a failing fork iteration fails the step and stops the others', async () => {
    const { calls, deps } = fake(({ args }) =>
      args.x === 1 ? { output: null, errors: ['device offline'] } : ok(args.x),
    );
    deps.forkConcurrency = 1;
    const steps = parseSteps(
      [{ 'fork x in ${[0, 1, 2, 3]}': [{ action: 'a.b', args: { x: '${x}' } }] }],
      'procedure.p',
    );
    const err = await rejection(runSteps(steps, {}, deps));
    expect(err.code).toBe('ACTION_FAILED');
    expect(err.message).toBe('procedure.p step 1 > fork > step 1 (a.b) failed: device offline');
    expect(calls.map((c) => c.args.x)).toEqual([0, 1]);
  });

  it('while loops until false and is capped', async () => {
    const { calls, deps } = fake();
    const steps = parseSteps(
      [{ 'while ${n < 3}': [{ action: 'a.b', args: { n: '${n}' } }, { set: { n: '${n + 1}' } }] }],
      'p',
    );
    await runSteps(steps, { n: 0 }, deps);
    expect(calls.map((c) => c.args.n)).toEqual([0, 1, 2]);

    deps.maxWhileIterations = 50;
    const forever = parseSteps([{ 'while ${true}': [{ set: { i: 1 } }] }], 'procedure.spin');
    const err = await rejection(runSteps(forever, {}, deps));
    expect(err.code).toBe('ACTION_FAILED');
    expect(err.message).toBe('procedure.spin step 1: while loop exceeded 50 iterations');
  });

  it('while stops on break', async () => {
    const { deps } = fake();
    const steps = parseSteps(
      [
        { 'while ${true}': [{ set: { n: '${n + 1}' } }, { 'if ${n >= 4}': ['break'] }] },
        'return ${n}',
      ],
      'p',
    );
    expect(await runSteps(steps, { n: 0 }, deps)).toBe(4);
  });

  it('set assigns in order', async () => {
    const { deps } = fake();
    const steps = parseSteps([{ set: { a: 2, b: '${a * 10}' } }, 'return ${[a, b]}'], 'p');
    expect(await runSteps(steps, {}, deps)).toEqual([2, 20]);
  });

  it('a failed action stops the run with ACTION_FAILED naming the step', async () => {
    const proc = parseProcedure('procedure.morning', [
      { action: 'a.first' },
      { 'if ${true}': [{ action: 'music.spotify.play' }] },
      { action: 'never.run' },
    ]);
    const { calls, deps } = fake(({ action }) =>
      action === 'music.spotify.play'
        ? { output: null, errors: ['no active device', 'retry later'] }
        : ok(1),
    );
    const err = await rejection(runProcedure(proc, {}, deps));
    expect(err.code).toBe('ACTION_FAILED');
    expect(err.message).toBe(
      'procedure.morning step 2 > if > step 1 (music.spotify.play) failed: no active device; retry later',
    );
    expect(err.details).toMatchObject({
      action: 'music.spotify.play',
      errors: ['no active device', 'retry later'],
    });
    expect(calls.map((c) => c.action)).toEqual(['a.first', 'music.spotify.play']);
  });

  it('ignore_errors continues and exposes the errors', async () => {
    const steps = parseSteps(
      [{ action: 'a.fail', ignore_errors: true }, { return: '${errors}' }],
      'p',
    );
    const { deps } = fake(() => ({ output: null, errors: ['boom'] }));
    expect(await runSteps(steps, {}, deps)).toEqual(['boom']);
  });

  it('a throwing execute keeps its code, prefixed with the step', async () => {
    const { deps } = fake(() => {
      throw new PipitError('NOT_FOUND', 'unknown action nope.x');
    });
    const err = await rejection(
      runSteps(parseSteps([{ action: 'nope.x' }], 'procedure.p'), {}, deps),
    );
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message).toBe('procedure.p step 1 (nope.x): unknown action nope.x');
    const tolerated = parseSteps(
      [{ action: 'nope.x', ignore_errors: true }, 'return ${errors}'],
      'p',
    );
    expect(await runSteps(tolerated, {}, deps)).toEqual(['unknown action nope.x']);
  });

  it('expression errors at run time name the step', async () => {
    const { deps } = fake();
    const err = await rejection(
      runSteps(
        parseSteps(
          [{ 'if ${true}': [{ action: 'a.b', args: { v: '${missing}' } }] }],
          'procedure.p',
        ),
        {},
        deps,
      ),
    );
    expect(err.code).toBe('INVALID_ARGUMENTS');
    expect(err.message).toMatch(
      /^procedure\.p step 1 > if > step 1: expression "missing": unknown variable 'missing'/,
    );
  });

  it('args written as one expression must give an object', async () => {
    const { calls, deps } = fake();
    const steps = parseSteps([{ action: 'a.b', args: '${params}' }], 'procedure.p');
    await runSteps(steps, { params: { q: 1 } }, deps);
    expect(calls[0]!.args).toEqual({ q: 1 });
    const err = await rejection(runSteps(steps, { params: 'str' }, deps));
    expect(err.message).toBe('procedure.p step 1: args must be an object, got string');
  });

  it('event data containing ${...} is passed on literally', async () => {
    const { calls, deps } = fake();
    const steps = parseSteps(
      [{ action: 'log.write', args: { msg: 'got ${data}', raw: '${data}' } }],
      'p',
    );
    await runSteps(steps, { data: '${process.exit()}' }, deps);
    expect(calls[0]!.args).toEqual({ msg: 'got ${process.exit()}', raw: '${process.exit()}' });
  });

  it('outputs and arguments with __proto__ keys do not pollute prototypes', async () => {
    const evil = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "ok": 1}',
    ) as unknown;
    const { calls, deps } = fake(() => ok(evil));
    const steps = parseSteps(
      [{ action: 'a.b' }, { action: 'c.d', args: { ok: '${ok}', out: '${output}' } }],
      'p',
    );
    await runSteps(steps, evil as Record<string, unknown>, deps);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(calls[1]!.args.ok).toBe(1);
    expect(calls[1]!.args.out).toBe(evil);
  });

  it('stops between steps when the signal aborts', async () => {
    const controller = new AbortController();
    const { calls, deps } = fake(({ action }) => {
      if (action === 'a.second') controller.abort(new PipitError('UNAVAILABLE', 'shutting down'));
      return ok(1);
    });
    deps.signal = controller.signal;
    const steps = parseSteps(
      [{ action: 'a.first' }, { action: 'a.second' }, { action: 'a.third' }],
      'p',
    );
    const err = await rejection(runSteps(steps, {}, deps));
    expect(err.message).toBe('shutting down');
    expect(calls.map((c) => c.action)).toEqual(['a.first', 'a.second']);
  });

  it('abandons a pending action on abort and stops a while loop', async () => {
    const controller = new AbortController();
    const { deps } = fake(() => new Promise<ActionResult>(() => undefined));
    deps.signal = controller.signal;
    const run = runSteps(parseSteps([{ action: 'utils.sleep' }], 'procedure.p'), {}, deps);
    controller.abort();
    const err = await rejection(run);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toBe('procedure.p step 1: procedure stopped');

    const timeout = AbortSignal.abort(new DOMException('timed out', 'TimeoutError'));
    const spin = parseSteps([{ 'while ${true}': [{ set: { i: 1 } }] }], 'procedure.q');
    const err2 = await rejection(runSteps(spin, {}, { ...fake().deps, signal: timeout }));
    expect(err2.code).toBe('TIMEOUT');
  });

  it('gives timers a turn inside long loops, so that a timeout stops nested loops', async () => {
    // 100 million steps without a turn would hold the process for minutes.
    const nested = parseSteps(
      [{ 'for i in ${range(10000)}': [{ 'for j in ${range(10000)}': [{ set: { x: '${j}' } }] }] }],
      'event.hook.Spin then',
    );
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const err = await rejection(
        runSteps(nested, {}, { ...fake().deps, signal: AbortSignal.timeout(50) }),
      );
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toMatch(/^event\.hook\.Spin then step 1 > .*: procedure stopped$/);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      clearInterval(timer);
    }
  });

  it('calls other procedures through execute', async () => {
    const { calls, deps } = fake(({ action }) =>
      ok(action === 'procedure.other' ? { from: 'other' } : null),
    );
    const steps = parseSteps(
      [{ action: 'procedure.other', args: { x: 1 } }, 'return ${from}'],
      'p',
    );
    expect(await runSteps(steps, {}, deps)).toBe('other');
    expect(calls[0]).toEqual({ action: 'procedure.other', args: { x: 1 } });
  });

  it('deps.variables are visible and overridden by arguments', async () => {
    const { deps } = fake();
    deps.variables = { a: 1, b: 2 };
    const proc = parseProcedure('procedure.p(b)', ['return ${[a, b]}']);
    expect(await runProcedure(proc, { b: 3 }, deps)).toEqual([1, 3]);
  });
});
