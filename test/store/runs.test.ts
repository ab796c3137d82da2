import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { FinishedRun } from '../../src/core/runs.ts';
import { openDatabase, migrate } from '../../src/store/db.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { BatchWriter } from '../../src/store/run-batch-writer.ts';
import { batchContexts, decodeBatch } from '../../src/store/run-codec.ts';
import { compileFilter } from '../../src/store/run-filter.ts';
import { Runs } from '../../src/store/runs.ts';
import { finishedRun } from '../helpers/runs.ts';

const MS = 1_795_400_000_000; // a fixed start time (2026-11-22)

function run(over: Partial<FinishedRun> & { id: number }): FinishedRun {
  return finishedRun({
    caller: { user: 'ada', via: 'token', token_id: 'tok-1' },
    duration_ms: 1.25,
    ...over,
  });
}

const at = (ms: number, n = 0) => (MS + ms) * 1024 + n;

describe('run batches', () => {
  it('keep every field of a run through the compact form', () => {
    const parent = at(0);
    // What goes in as it is and comes back out the same.
    const kept = {
      id: at(5),
      parent_id: parent,
      root_id: parent,
      kind: 'procedure',
      name: 'procedure.greet',
      transport: 'hook',
      caller: null,
      trigger: { hook: 'OnDoor', event_id: 'ev-1', event_type: 'CustomEvent' },
      outcome: 'failed',
      error_code: 'ACTION_FAILED',
      errors: ['boom', 'second line'],
    } as const;
    const runs = [
      run({
        ...kept,
        trigger: { ...kept.trigger },
        errors: [...kept.errors],
        output: undefined,
        replay_of: String(at(-100)),
        args: { password: 'hunter2', nested: { Authorization: 'Bearer x' }, n: [1, 2] },
      }),
      run({ id: at(6), args: { text: 'x'.repeat(400) }, output: 'y'.repeat(400) }),
      run({ id: at(7), output: null, started_at: MS + 8 }),
    ];
    const batch = new BatchWriter(at(5), 100);
    for (const r of runs) batch.add(r);
    const text = batch.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('Bearer x');
    const [a, b, c] = decodeBatch(text);
    expect(a).toMatchObject({
      ...kept,
      started_at: MS + 5,
      duration_ms: 1.25,
      replay_of: at(-100),
      args: { password: '[redacted]', nested: { Authorization: '[redacted]' }, n: [1, 2] },
      args_truncated: false,
      output: undefined,
    });
    expect(b).toMatchObject({
      caller: { user: 'ada', via: 'token', token_id: 'tok-1' },
      args: `{"text":"${'x'.repeat(91)}`,
      args_truncated: true,
      output: `"${'y'.repeat(99)}`,
      output_truncated: true,
      parent_id: null,
      root_id: at(6),
    });
    expect(c).toMatchObject({ output: null, started_at: MS + 8, output_truncated: false });
  });

  it('write what runs share once, and keep each run its own context', () => {
    const ada = { user: 'ada', via: 'token', token_id: 'tok-1' };
    const cron = at(0);
    const runs = [
      // Same context as each other (equal callers, not the same object)...
      run({ id: at(1), caller: ada }),
      run({ id: at(2), caller: { ...ada } }),
      // ...then a run that differs in one field each...
      run({ id: at(3), caller: { ...ada, token_id: 'tok-2' } }),
      run({
        id: at(4),
        caller: ada,
        outcome: 'failed',
        error_code: 'NOT_FOUND',
        errors: ['no'],
        output: undefined,
      }),
      run({ id: at(5), caller: ada, replay_of: String(at(1)) }),
      // ...a cron's steps, two levels down...
      run({ id: at(6, 1), parent_id: cron, root_id: cron, caller: null, trigger: { cron: 'N' } }),
      run({
        id: at(6, 2),
        parent_id: at(6, 1),
        root_id: cron,
        caller: null,
        trigger: { cron: 'N' },
      }),
      // ...and the first context again.
      run({ id: at(7), caller: ada }),
    ];
    const batch = new BatchWriter(at(1), 16384);
    for (const r of runs) batch.add(r);
    const text = batch.text();
    expect((JSON.parse(text) as { contexts: unknown[] }).contexts).toHaveLength(5);
    const decoded = decodeBatch(text);
    expect(decoded.map((r) => r.caller?.token_id ?? null)).toEqual([
      'tok-1',
      'tok-1',
      'tok-2',
      'tok-1',
      'tok-1',
      null,
      null,
      'tok-1',
    ]);
    expect(decoded[3]).toMatchObject({
      outcome: 'failed',
      error_code: 'NOT_FOUND',
      errors: ['no'],
      output: undefined,
    });
    expect(decoded.map((r) => r.error_code)).toEqual([
      null,
      null,
      null,
      'NOT_FOUND',
      null,
      null,
      null,
      null,
    ]);
    expect(decoded[4]!.replay_of).toBe(at(1));
    expect(decoded[7]!.replay_of).toBeNull();
    expect(decoded[5]).toMatchObject({ parent_id: cron, root_id: cron, trigger: { cron: 'N' } });
    expect(decoded[6]).toMatchObject({ parent_id: at(6, 1), root_id: cron, caller: null });
    expect(decoded[0]).toMatchObject({ parent_id: null, root_id: at(1), trigger: null });
  });

  it('are skipped by what their runs share, unparsed, only when no run could match', () => {
    // Both names are in the batch's text, but no single context holds "hook" and "utils.echo".
    const batch = new BatchWriter(at(1), 16384);
    batch.add(run({ id: at(1), args: { text: ',"runs":[[1]]', note: 'hook' } }));
    batch.add(run({ id: at(2), kind: 'hook', name: 'Door', transport: 'hook' }));
    const text = batch.text();
    expect(text).toContain('"utils.echo"');
    expect(text).toContain('"hook"');
    expect(batchContexts(text)?.map((c) => [c.name, c.transport])).toEqual([
      ['utils.echo', 'http'],
      ['Door', 'hook'],
    ]);
    const may = (filter: Parameters<typeof compileFilter>[0]) =>
      compileFilter(filter).batchMayMatch(text);
    expect(may({ transport: 'hook', action: 'utils.echo', limit: 1 })).toBe(false);
    expect(may({ transport: 'hook', action: 'Door', limit: 1 })).toBe(true);
    expect(may({ hook: 'Door', limit: 1 })).toBe(false);
    expect(may({ transport: 'http', text: 'no such words', limit: 1 })).toBe(false);
    expect(may({ transport: 'http', text: '"RUNS"', limit: 1 })).toBe(true);
    // Other formats (a plain array, as pruning writes) are never skipped on their contexts.
    const plain = JSON.stringify(decodeBatch(text));
    expect(batchContexts(plain)).toBeUndefined();
    expect(compileFilter({ transport: 'cron', limit: 1 }).batchMayMatch(plain)).toBe(true);
  });

  it('still read batches written in the format before (version 2)', () => {
    // Written by the version 2 BatchWriter: a failed cron, its failed step (a secret masked), and
    // a replayed echo whose arguments were cut at 100 characters.
    const v2 =
      '{"v":2,"base":1838489600000000,"strings":["cron","Nightly","ACTION_FAILED","action","shell.exec","utils.echo","http","ada","token","tok-1","1838489599994880"],"runs":[[0,null,0,0,1,0,-1,-1,-1,-1,1,-1,-1,0,12500,1,2,["step 1 failed"],-1,0,{}],[1024,0,0,3,4,0,-1,-1,-1,-1,1,-1,-1,0,3250,1,2,["exit 1"],-1,0,{"cmd":"false","token":"[redacted]"}],[2048,null,2048,3,5,6,7,8,9,-1,-1,-1,-1,1,500,0,-1,0,10,5,"{\\"text\\":\\"' +
      'x'.repeat(90) +
      '","y"]]}';
    const [cron, step, echo] = decodeBatch(v2);
    expect(cron).toMatchObject({
      id: at(0),
      parent_id: null,
      root_id: at(0),
      kind: 'cron',
      name: 'Nightly',
      transport: 'cron',
      caller: null,
      trigger: { cron: 'Nightly' },
      started_at: MS,
      duration_ms: 12.5,
      outcome: 'failed',
      error_code: 'ACTION_FAILED',
      errors: ['step 1 failed'],
      args: {},
      output: undefined,
    });
    expect(step).toMatchObject({
      id: at(1),
      parent_id: at(0),
      root_id: at(0),
      name: 'shell.exec',
      args: { cmd: 'false', token: '[redacted]' },
      errors: ['exit 1'],
    });
    expect(echo).toMatchObject({
      id: at(2),
      parent_id: null,
      caller: { user: 'ada', via: 'token', token_id: 'tok-1' },
      trigger: null,
      started_at: MS + 3,
      outcome: 'ok',
      replay_of: at(-5),
      args: `{"text":"${'x'.repeat(90)}`,
      args_truncated: true,
      output: 'y',
      output_truncated: false,
    });
  });
});

describe('run batches: values that JSON writes its own way, or cannot write', () => {
  const roundTrip = (runs: FinishedRun[], max: number) => {
    const batch = new BatchWriter(runs[0]!.id, max);
    for (const r of runs) batch.add(r);
    return decodeBatch(batch.text());
  };

  it('says which outputs are not JSON (BigInt, a getter that throws), cuts cycles, and keeps the rest of the batch', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const [a, b, c, d] = roundTrip(
      [
        run({ id: at(1), output: circular }),
        run({ id: at(2), output: { n: 10n } }),
        run({
          id: at(3),
          output: Object.defineProperty({}, 'boom', {
            enumerable: true,
            get: () => {
              throw new Error('no reading me');
            },
          }),
        }),
        run({ id: at(4), output: { fine: true } }),
      ],
      16384,
    );
    // Masking walks 32 levels at most: a cycle is cut there.
    expect(JSON.stringify(a!.output)).toContain('[too deep]');
    expect(b!.output).toMatch(/^\[not JSON: .*BigInt/i);
    expect(c!.output).toBe('[not JSON: no reading me]');
    expect(d).toMatchObject({ output: { fine: true }, output_truncated: false });
  });

  it('writes values that decide their own JSON (toJSON, class instances) as JSON writes them', () => {
    class Point {
      x = 1;
      y = 2;
    }
    const when = new Date(MS);
    const [a, b] = roundTrip(
      [run({ id: at(1), output: { when } }), run({ id: at(2), output: new Point() })],
      16384,
    );
    expect(a!.output).toEqual({ when: when.toISOString() });
    expect(b!.output).toEqual({ x: 1, y: 2 });
  });

  it('measures a value the masking walk cannot bound under the limit, and keeps it whole when it fits', () => {
    // 40 characters bound at 6 each (escapes) are over 100; their JSON is 42.
    const [a, b] = roundTrip(
      [
        run({ id: at(1), args: { text: 'é'.repeat(40) }, output: ['é'.repeat(40)] }),
        run({ id: at(2), output: 'é'.repeat(120) }),
      ],
      100,
    );
    expect(a).toMatchObject({
      args: { text: 'é'.repeat(40) },
      args_truncated: false,
      output: ['é'.repeat(40)],
      output_truncated: false,
    });
    expect(b).toMatchObject({ output: `"${'é'.repeat(99)}`, output_truncated: true });
  });

  it('cuts the reason kept for a value that cannot be read to the limit too', () => {
    const loud = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('x'.repeat(500));
      },
    });
    const [a] = roundTrip([run({ id: at(1), args: loud, output: loud })], 100);
    expect(a).toMatchObject({ args_truncated: true, output_truncated: true });
    expect(String(a!.args)).toHaveLength(100);
    expect(String(a!.output)).toMatch(/^"\[not JSON: x{80}/);
    expect(String(a!.output)).toHaveLength(100);
  });

  it('keeps the batch when a value read fine by the masking walk fails to write afterwards', () => {
    let reads = 0;
    const fickle = Object.defineProperty({}, 'n', {
      enumerable: true,
      get: () => {
        if (reads++) throw new Error('read twice');
        return 1;
      },
    });
    const [a, b] = roundTrip(
      [run({ id: at(1), output: fickle }), run({ id: at(2), output: { fine: true } })],
      16384,
    );
    expect(reads).toBeGreaterThan(1);
    expect(a).toMatchObject({ output: '[not JSON: read twice]', output_truncated: false });
    expect(b).toMatchObject({ output: { fine: true }, args: { text: 'hi' } });
  });

  it('cuts a value of class instances past the limit like any other', () => {
    const [a] = roundTrip(
      [run({ id: at(1), output: { at: new Date(MS), pad: 'p'.repeat(50) } })],
      40,
    );
    expect(a).toMatchObject({ output_truncated: true });
    expect(String(a!.output)).toHaveLength(40);
  });
});

describe('the run history store', () => {
  function store(): { db: DatabaseSync; runs: Runs } {
    const db = openDatabase(':memory:');
    return { db, runs: new Runs(db) };
  }

  it('lists newest first by start time across batches, a long run written after shorter ones', () => {
    const { runs } = store();
    // The long run started first but finished (and was written) last.
    runs.insert([run({ id: at(10) }), run({ id: at(20) })], 1024);
    runs.insert([run({ id: at(30) }), run({ id: at(5), name: 'utils.sleep' })], 1024);
    runs.insert([run({ id: at(40) })], 1024);
    const ids = runs.list({ limit: 10 }).map((r) => Number(r.id));
    expect(ids).toEqual([at(40), at(30), at(20), at(10), at(5)]);
    const page1 = runs.list({ limit: 2 });
    expect(page1.map((r) => Number(r.id))).toEqual([at(40), at(30)]);
    const page2 = runs.list({ limit: 2, before: page1[1]!.id });
    expect(page2.map((r) => Number(r.id))).toEqual([at(20), at(10)]);
    expect(runs.list({ limit: 5, before: page2[1]!.id }).map((r) => r.name)).toEqual([
      'utils.sleep',
    ]);
    expect(runs.list({ limit: 10, since: MS + 20 }).map((r) => Number(r.id))).toEqual([
      at(40),
      at(30),
      at(20),
    ]);
    expect(runs.list({ limit: 10, until: MS + 20 }).map((r) => Number(r.id))).toEqual([
      at(10),
      at(5),
    ]);
    expect(runs.list({ limit: 10, action: 'utils.sleep' })).toHaveLength(1);
    expect(runs.list({ limit: 10, action: 'utils' })).toEqual([]);
  });

  it('finds steps in the batches written while their run ran, and counts them', () => {
    const { runs } = store();
    const proc = at(0);
    const step = (ms: number, name: string) =>
      run({ id: at(ms), parent_id: proc, root_id: proc, name, transport: 'procedure' });
    runs.insert([step(1, 'a.one')], 1024);
    runs.insert([run({ id: at(2) }), step(3, 'a.two')], 1024);
    runs.insert(
      [step(4, 'a.three'), run({ id: proc, kind: 'procedure', name: 'procedure.p' })],
      1024,
    );
    runs.insert([run({ id: at(9) })], 1024);
    const listed = runs.list({ limit: 10 }).find((r) => r.name === 'procedure.p');
    expect(listed?.steps).toBe(3);
    expect(runs.get(String(proc))?.steps).toBe(3);
    expect(runs.children(String(proc)).map((r) => r.name)).toEqual(['a.one', 'a.two', 'a.three']);
    expect(runs.list({ limit: 10, include_steps: true })).toHaveLength(6);
    expect(runs.get('999')).toBeUndefined();
    expect(runs.get('not a number')).toBeUndefined();
  });

  it('filters failed runs, text in any case, and names the token as it is now', () => {
    const { db, runs } = store();
    db.prepare(
      "INSERT INTO users (id, username, password_hash, created_at) VALUES (1, 'ada', 'x', 0)",
    ).run();
    db.prepare(
      "INSERT INTO api_tokens (id, user_id, name, created_at) VALUES ('tok-1', 1, 'kitchen', 0)",
    ).run();
    runs.insert(
      [
        run({ id: at(1), args: { text: 'Hello World' } }),
        run({ id: at(2), outcome: 'failed', error_code: 'ACTION_FAILED', errors: ['100% down'] }),
      ],
      1024,
    );
    expect(runs.list({ limit: 10, outcome: 'failed' }).map((r) => r.errors)).toEqual([
      ['100% down'],
    ]);
    expect(runs.list({ limit: 10, text: 'hello world' }).map((r) => Number(r.id))).toEqual([at(1)]);
    expect(runs.list({ limit: 10, text: '%' })).toHaveLength(1);
    expect(runs.list({ limit: 10, text: '_' })).toEqual([]);
    expect(runs.get(String(at(1)))?.caller).toEqual({
      user: 'ada',
      via: 'token',
      token: 'kitchen',
    });
  });

  it('prunes in bounded steps to the same runs as a prune in one go', () => {
    // 12 batches of 10 runs, a millisecond apart; by age the first 2.5 batches go (a boundary
    // batch is written again), by count all but the newest 45.
    const fill = () => {
      const s = store();
      for (let b = 0; b < 12; b++)
        s.runs.insert(
          Array.from({ length: 10 }, (_, i) => run({ id: at(b * 10 + i) })),
          1024,
        );
      return s;
    };
    const opts = { maxCount: 45, maxAgeMs: 100, now: MS + 125 };
    const whole = fill().runs;
    expect(whole.prune(opts)).toBe(75);

    const stepped = fill();
    const seqs = () =>
      (stepped.db.prepare('SELECT seq FROM run_batches').all() as { seq: number }[]).length;
    const steps: number[] = [];
    for (let n; (n = stepped.runs.prune({ ...opts, maxBatches: 2 }));) {
      steps.push(n);
      // Each step deletes or writes again at most 2 batches.
      expect(seqs()).toBeGreaterThanOrEqual(12 - 2 * steps.length);
    }
    expect(steps).toEqual([20, 10, 20, 20, 5]);
    const ids = (r: Runs) => r.list({ limit: 500 }).map((x) => Number(x.id));
    expect(ids(stepped.runs)).toEqual(ids(whole));
    expect(ids(whole)).toEqual(Array.from({ length: 45 }, (_, i) => at(119 - i)));
  });

  it('prunes by count to the exact number, writing the boundary batch again', () => {
    const { runs } = store();
    for (let b = 0; b < 3; b++)
      runs.insert(
        Array.from({ length: 10 }, (_, i) => run({ id: at(b * 10 + i) })),
        1024,
      );
    expect(runs.count()).toBe(30);
    expect(runs.prune({ maxCount: 15, maxAgeMs: 86_400_000, now: MS + 100 })).toBe(15);
    expect(runs.count()).toBe(15);
    const kept = runs.list({ limit: 100 }).map((r) => Number(r.id));
    expect(kept).toEqual(Array.from({ length: 15 }, (_, i) => at(29 - i)));
    // By age: runs that started before now - maxAge go, in the middle of a batch too.
    expect(runs.prune({ maxCount: 100, maxAgeMs: 100 - 25, now: MS + 100 })).toBe(10);
    expect(runs.list({ limit: 100 }).map((r) => Number(r.id))).toEqual(
      Array.from({ length: 5 }, (_, i) => at(29 - i)),
    );
    expect(runs.get(String(at(29)))?.output).toEqual({ text: 'hi' });
  });

  it('moves the runs of schema version 2 into batches', () => {
    const db = new DatabaseSync(':memory:');
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)',
    );
    for (const m of MIGRATIONS.filter((m) => m.version <= 2)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
    }
    const insert = db.prepare(
      `INSERT INTO runs (id, parent_id, root_id, kind, name, transport, caller_user, caller_via,
        caller_token_id, hook, cron, event_id, event_type, args, started_at, duration_ms, outcome,
        error_code, errors, output, output_truncated, replay_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(
      at(1),
      null,
      at(1),
      'hook',
      'OnDoor',
      'hook',
      null,
      null,
      null,
      'OnDoor',
      null,
      'ev-9',
      'CustomEvent',
      '{"who":"cy"}',
      MS + 1,
      3.5,
      'failed',
      'ACTION_FAILED',
      '["boom"]',
      null,
      0,
      null,
    );
    insert.run(
      at(2),
      at(1),
      at(1),
      'action',
      'utils.echo',
      'hook',
      'ada',
      'token',
      'tok-1',
      'OnDoor',
      null,
      'ev-9',
      'CustomEvent',
      '{"text":"cut',
      MS + 2,
      0.5,
      'ok',
      null,
      '[]',
      '"abc',
      1,
      null,
    );
    insert.run(
      at(3),
      null,
      at(3),
      'action',
      'utils.echo',
      'http',
      'ada',
      'session',
      null,
      null,
      null,
      null,
      null,
      '{}',
      MS + 3,
      0.1,
      'ok',
      null,
      '[]',
      '{"a":1}',
      0,
      at(2),
    );
    expect(migrate(db)).toBe(MIGRATIONS.length - 2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'runs'").get()).toBeUndefined();
    const runs = new Runs(db);
    expect(runs.count()).toBe(3);
    const hook = runs.get(String(at(1)))!;
    expect(hook).toMatchObject({
      kind: 'hook',
      trigger: { hook: 'OnDoor', event_id: 'ev-9', event_type: 'CustomEvent' },
      args: { who: 'cy' },
      outcome: 'failed',
      errors: ['boom'],
      caller: null,
      steps: 1,
      output: null,
    });
    const [step] = runs.children(String(at(1)));
    expect(step).toMatchObject({
      args: { _truncated: '{"text":"cut' },
      output: '"abc',
      output_truncated: true,
      caller: { user: 'ada', via: 'token' },
    });
    expect(runs.get(String(at(3)))).toMatchObject({ output: { a: 1 }, replay_of: String(at(2)) });
    expect(runs.list({ limit: 10, event_id: 'ev-9', include_steps: true })).toHaveLength(2);
    // New batches go on after the moved ones.
    runs.insert([run({ id: at(4) })], 1024);
    expect(runs.list({ limit: 1 })[0]!.id).toBe(String(at(4)));
  });
});
