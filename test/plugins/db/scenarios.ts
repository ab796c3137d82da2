import { expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { ok } from './db-app.ts';

/** What the shared scenarios run against: a service whose db.engine is the database. */
export interface EngineUnderTest {
  t: TestApp;
  /** The engine URL without its password, as messages show it. */
  label: string;
}

/**
 * Asserts a call was refused for its arguments: by their schema (INVALID_ARGUMENTS) or by the
 * action before it ran any SQL (ACTION_FAILED whose reason is INVALID_ARGUMENTS).
 */
export function expectRefused(
  res: Awaited<ReturnType<typeof call>>,
  message: RegExp | string,
  what = '',
): void {
  expect([res.code, res.reason], what).toContain('INVALID_ARGUMENTS');
  if (typeof message === 'string') expect(res.errors.join('\n'), what).toContain(message);
  else expect(res.errors.join('\n'), what).toMatch(message);
}

const HOSTILE_TABLES = ['x; DROP TABLE t', '"t"', 't--'];
const HOSTILE_VALUE = "'); DROP TABLE t; --";

/**
 * The behaviour both engines share, registered as `it` blocks: each makes its own table with
 * db.execute and works on it through the configured engine.
 *
 * @example
 * engineScenarios(() => ({ t, label: 'sqlite:///…' }));
 */
export function engineScenarios(get: () => EngineUnderTest): void {
  const table = async (name: string) => {
    await ok(get().t, 'db.execute', {
      statement: `CREATE TABLE ${name} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value DOUBLE PRECISION, source TEXT)`,
    });
    return name;
  };
  const rows = async (name: string) =>
    (await ok(get().t, 'db.select', { query: `SELECT * FROM ${name} ORDER BY id` })) as unknown[];
  const temp = { id: 1, name: 'temperature', value: 21.5, source: 'hall' };
  const hum = { id: 2, name: 'humidity', value: 40, source: 'hall' };

  it('creates a table with execute, inserts records and answers the rows written', async () => {
    const t = await table('crud_insert');
    expect(await ok(get().t, 'db.insert', { table: t, records: [temp, hum] })).toEqual([temp, hum]);
    expect(await ok(get().t, 'db.select', { table: t, filter: { name: 'humidity' } })).toEqual([
      hum,
    ]);
    expect(await ok(get().t, 'db.select', { table: t, filter: { source: 'hall', id: 1 } })).toEqual(
      [temp],
    );
    expect(await rows(t)).toEqual([temp, hum]);
  });

  it('select with query binds data by name or position; quoted colons and casts stay SQL', async () => {
    const t = await table('crud_query');
    await ok(get().t, 'db.insert', { table: t, records: [temp, hum] });
    const named = await ok(get().t, 'db.select', {
      query: `SELECT id, name FROM ${t} WHERE source = :src AND id >= :min ORDER BY id`,
      data: { src: 'hall', min: 2 },
    });
    expect(named).toEqual([{ id: 2, name: 'humidity' }]);
    const positional = await ok(get().t, 'db.select', {
      query: `SELECT name FROM ${t} WHERE name = ? AND value > ?`,
      data: ['temperature', 20],
    });
    expect(positional).toEqual([{ name: 'temperature' }]);
    const literal = await ok(get().t, 'db.select', {
      // ':src' in quotes and -- :x in a comment are not placeholders; :id twice is one value.
      query: `SELECT ':src' AS said, CAST(id AS TEXT) AS id_text FROM ${t} WHERE id = :id OR id = :id -- :x\n`,
      data: { id: 1 },
    });
    expect(literal).toEqual([{ said: ':src', id_text: '1' }]);
  });

  it('insert with key_columns skips existing rows, and updates them with on_duplicate_update', async () => {
    const t = await table('crud_upsert');
    await ok(get().t, 'db.insert', { table: t, records: [temp] });
    const changed = { ...temp, value: 23 };
    const skipped = await ok(get().t, 'db.insert', {
      table: t,
      records: [changed, hum],
      key_columns: ['id'],
    });
    expect(skipped).toEqual([hum]);
    expect(await rows(t)).toEqual([temp, hum]);
    const upserted = await ok(get().t, 'db.insert', {
      table: t,
      records: [changed, { id: 3, name: 'pressure', value: 1013, source: 'roof' }],
      key_columns: ['id'],
      on_duplicate_update: true,
    });
    expect(upserted).toEqual([changed, { id: 3, name: 'pressure', value: 1013, source: 'roof' }]);
    expect(await rows(t)).toHaveLength(3);
    expect((await rows(t))[0]).toEqual(changed);
  });

  it('update changes the rows picked by key_columns and answers them', async () => {
    const t = await table('crud_update');
    await ok(get().t, 'db.insert', { table: t, records: [temp, hum] });
    const out = await ok(get().t, 'db.update', {
      table: t,
      key_columns: ['id'],
      records: [{ id: 2, value: 55, source: null }],
    });
    expect(out).toEqual([{ ...hum, value: 55, source: null }]);
    expect(await rows(t)).toEqual([temp, { ...hum, value: 55, source: null }]);
    const res = await call(get().t, 'db.update', {
      table: t,
      key_columns: ['id'],
      records: [{ value: 1 }],
    });
    expectRefused(res, /records\[0\] has no value for the key column\(s\) "id"/);
  });

  it('delete removes the rows matching each record (null matches NULL); an empty record is refused', async () => {
    const t = await table('crud_delete');
    const bare = { id: 3, name: 'bare', value: null, source: null };
    await ok(get().t, 'db.insert', { table: t, records: [temp, hum, bare] });
    expect(await ok(get().t, 'db.select', { table: t, filter: { source: null } })).toEqual([bare]);
    expect(
      await ok(get().t, 'db.delete', { table: t, records: [{ id: 1 }, { source: null }] }),
    ).toEqual({ success: true });
    expect(await rows(t)).toEqual([hum]);
    const res = await call(get().t, 'db.delete', { table: t, records: [{}] });
    expectRefused(res, /records\[0\] is empty, which would delete every row/);
    expect(await rows(t)).toEqual([hum]);
  });

  it('hostile table and column names are refused, naming them, and nothing runs', async () => {
    const t = await table('t');
    await ok(get().t, 'db.insert', { table: t, records: [temp] });
    for (const bad of HOSTILE_TABLES) {
      for (const [action, args] of [
        ['db.select', { table: bad, filter: { id: 1 } }],
        ['db.insert', { table: bad, records: [hum] }],
        ['db.update', { table: bad, records: [hum], key_columns: ['id'] }],
        ['db.delete', { table: bad, records: [{ id: 1 }] }],
      ] as const) {
        const res = await call(get().t, action, args);
        expect(res.code, `${action} ${bad}`).toBe('INVALID_ARGUMENTS');
        expect(res.errors[0]).toContain(`table ${JSON.stringify(bad)} is not a table name`);
      }
    }
    const columns = [
      ['db.select', { table: t, filter: { 'id = 1 OR 1': 1 } }, 'id = 1 OR 1'],
      [
        'db.insert',
        { table: t, records: [{ 'name) VALUES (1); --': 'x' }] },
        'name) VALUES (1); --',
      ],
      ['db.update', { table: t, records: [{ id: 1, value: 2 }], key_columns: ['id"'] }, 'id"'],
      ['db.delete', { table: t, records: [{ 'id--': 1 }] }, 'id--'],
    ] as const;
    for (const [action, args, bad] of columns) {
      const res = await call(get().t, action, args);
      expect(res.code, action).toBe('INVALID_ARGUMENTS');
      expect(res.errors[0]).toContain(`column ${JSON.stringify(bad)} is not a column name`);
    }
    expect(await rows(t)).toEqual([temp]);
  });

  it('hostile values are stored as data: the table stays and the value comes back as sent', async () => {
    const t = await table('t_values');
    const row = { id: 7, name: HOSTILE_VALUE, value: null, source: 'x"; DROP TABLE t_values; --' };
    expect(await ok(get().t, 'db.insert', { table: t, records: [row] })).toEqual([row]);
    expect(await ok(get().t, 'db.select', { table: t, filter: { name: HOSTILE_VALUE } })).toEqual([
      row,
    ]);
    expect(
      await ok(get().t, 'db.select', {
        query: `SELECT name FROM ${t} WHERE name = :n`,
        data: { n: HOSTILE_VALUE },
      }),
    ).toEqual([{ name: HOSTILE_VALUE }]);
    await ok(get().t, 'db.update', {
      table: t,
      key_columns: ['name'],
      records: [{ name: HOSTILE_VALUE, value: 1 }],
    });
    expect(await rows(t)).toEqual([{ ...row, value: 1 }]);
    await ok(get().t, 'db.delete', { table: t, records: [{ name: HOSTILE_VALUE }] });
    expect(await rows(t)).toEqual([]);
  });

  it('wrong argument types are refused before any SQL runs, naming the argument', async () => {
    const t = await table('crud_types');
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['db.insert', { table: t, records: 'temperature' }, /records/],
      ['db.insert', { table: 5, records: [temp] }, /table/],
      [
        'db.insert',
        { table: t, records: [temp], on_duplicate_update: 'yes' },
        /on_duplicate_update/,
      ],
      ['db.insert', { table: t, records: [temp], on_duplicate_update: true }, /needs key_columns/],
      ['db.update', { table: t, records: [temp], key_columns: 'id' }, /key_columns/],
      ['db.select', { table: t, filter: { id: { $gt: 1 } } }, /filter/],
      ['db.select', { table: t, query: 'SELECT 1' }, /either "query" .* or "table".*not both/],
      ['db.select', {}, /either "query"/],
      ['db.execute', { statement: 42 }, /statement/],
    ];
    for (const [action, args, message] of cases) {
      expectRefused(
        await call(get().t, action, args),
        message,
        `${action} ${JSON.stringify(args)}`,
      );
    }
    expect(await rows(t)).toEqual([]);
  });

  it('a record that fails rolls back the whole insert; the error names the engine, statement and cause', async () => {
    const t = await table('crud_atomic');
    await ok(get().t, 'db.insert', { table: t, records: [temp] });
    const res = await call(get().t, 'db.insert', {
      table: t,
      records: [hum, { ...temp, name: 'dup' }],
    });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors[0]).toContain(`db.insert on ${get().label}: "INSERT INTO "crud_atomic"`);
    expect(res.errors[0]).toMatch(/UNIQUE|unique/);
    expect(await rows(t)).toEqual([temp]);
    const missing = await call(get().t, 'db.select', { query: 'SELECT * FROM no_such_table' });
    expect(missing.code).toBe('ACTION_FAILED');
    expect(missing.errors[0]).toMatch(
      new RegExp(
        `^db\\.select on ${escape(get().label)}: "SELECT \\* FROM no_such_table" failed: .*no_such_table`,
      ),
    );
  });

  it('placeholders without their data, and scripts with data, are refused', async () => {
    const res = await call(get().t, 'db.select', { query: 'SELECT :a AS a', data: { b: 1 } });
    expectRefused(res, /uses :a but "data" has no "a"/);
    const two = await call(get().t, 'db.select', { query: 'SELECT 1; SELECT 2' });
    expectRefused(two, /holds 2 statements/);
    const count = await call(get().t, 'db.select', { query: 'SELECT ? AS a', data: [1, 2] });
    expectRefused(count, /"data" has 2 value\(s\) but the statement has 1 \? placeholder/);
    expect(await ok(get().t, 'db.select', { query: 'SELECT :a AS a', data: { a: 'x' } })).toEqual([
      { a: 'x' },
    ]);
  });

  it('an unknown engine scheme is refused, naming the scheme and not the password', async () => {
    const res = await call(get().t, 'db.select', {
      engine: 'mysql://root:hunter2@127.0.0.1/test',
      query: 'SELECT 1',
    });
    expectRefused(res, /engine scheme "mysql" is not supported/);
    expect(JSON.stringify(res.result)).not.toContain('hunter2');
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
