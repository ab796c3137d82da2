import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/service.ts';
import { call } from '../call.ts';
import { dbApp, ok } from './db-app.ts';
import { engineScenarios, expectRefused } from './scenarios.ts';

// db on SQLite files (node:sqlite), through execute() as every transport calls it.

let dir: string;
let file: string;
let t: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pipit-db-sqlite-'));
  file = join(dir, 'main.db');
  t = await dbApp(`db:\n  engine: sqlite:///${file}\n  busy_timeout: 0.2\n`);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('db on SQLite', () => {
  engineScenarios(() => ({ t, label: `sqlite:///${file}` }));

  it('opens the file of the URL (four slashes: absolute) and keeps what it writes there', async () => {
    await ok(t, 'db.execute', { statement: 'CREATE TABLE kept (k TEXT)' });
    await ok(t, 'db.insert', { table: 'kept', records: [{ k: 'v' }] });
    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      expect(raw.prepare('SELECT k FROM kept').all()).toEqual([{ k: 'v' }]);
    } finally {
      raw.close();
    }
  });

  it('sqlite:///name.db is relative to the working directory; sqlite:// is a memory database kept between calls', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await ok(t, 'db.execute', {
        engine: 'sqlite:///relative.db',
        statement: 'CREATE TABLE r (x)',
      });
    } finally {
      process.chdir(cwd);
    }
    expect(existsSync(join(dir, 'relative.db'))).toBe(true);
    await ok(t, 'db.execute', { engine: 'sqlite://', statement: 'CREATE TABLE m (x INTEGER)' });
    await ok(t, 'db.insert', { engine: 'sqlite://', table: 'm', records: [{ x: 1 }] });
    expect(await ok(t, 'db.select', { engine: 'sqlite://', table: 'm' })).toEqual([{ x: 1 }]);
    // Another URL is another database: the file has no table m.
    const other = await call(t, 'db.select', { table: 'm' });
    expect(other.errors[0]).toMatch(/no such table: m/);
    const host = await call(t, 'db.select', { engine: 'sqlite://host/x.db', query: 'SELECT 1' });
    expectRefused(host, /names a host.*sqlite:\/\/\/relative\/path\.db \(three slashes\)/);
  });

  it('a file whose folder does not exist is ACTION_FAILED naming the URL', async () => {
    const res = await call(t, 'db.select', {
      engine: `sqlite:///${dir}/missing/x.db`,
      query: 'SELECT 1',
    });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors[0]).toContain(
      `db.select on sqlite:///${dir}/missing/x.db: cannot open the database file`,
    );
  });

  it('a database another connection keeps locked is TIMEOUT after the busy timeout', async () => {
    await ok(t, 'db.execute', { statement: 'CREATE TABLE locked (x INTEGER)' });
    const other = new DatabaseSync(file);
    other.exec('BEGIN EXCLUSIVE');
    try {
      const started = Date.now();
      const res = await call(t, 'db.insert', { table: 'locked', records: [{ x: 1 }] });
      expect([res.code, res.reason]).toEqual(['ACTION_FAILED', 'TIMEOUT']);
      expect(res.errors[0]).toMatch(/waited 0\.2 s for a database another connection has locked/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await ok(t, 'db.insert', { table: 'locked', records: [{ x: 1 }] });
    expect(await ok(t, 'db.select', { table: 'locked' })).toEqual([{ x: 1 }]);
  });

  it('stores booleans as 1/0 and objects as JSON text; answers big integers as text and blobs as 0x hex', async () => {
    await ok(t, 'db.execute', { statement: 'CREATE TABLE shapes (b INTEGER, j TEXT)' });
    await ok(t, 'db.insert', { table: 'shapes', records: [{ b: true, j: { on: true, n: [1] } }] });
    expect(await ok(t, 'db.select', { table: 'shapes' })).toEqual([
      { b: 1, j: '{"on":true,"n":[1]}' },
    ]);
    expect(
      await ok(t, 'db.select', {
        query: "SELECT 9007199254740993 AS big, 42 AS small, x'00ff' AS bytes",
      }),
    ).toEqual([{ big: '9007199254740993', small: 42, bytes: '0x00ff' }]);
  });

  it('execute runs a script without data, one statement with data; ? needs data as a list', async () => {
    await ok(t, 'db.execute', {
      statement: "CREATE TABLE s (a TEXT); INSERT INTO s VALUES ('one; two'); -- done",
    });
    await ok(t, 'db.execute', { statement: 'INSERT INTO s VALUES (:a)', data: { a: 'three' } });
    await ok(t, 'db.execute', { statement: 'INSERT INTO s VALUES (?)', data: ['four'] });
    expect(await ok(t, 'db.select', { query: 'SELECT a FROM s ORDER BY rowid' })).toEqual([
      { a: 'one; two' },
      { a: 'three' },
      { a: 'four' },
    ]);
    const both = await call(t, 'db.execute', {
      statement: 'INSERT INTO s VALUES (:a); DROP TABLE s',
      data: { a: 'x' },
    });
    expectRefused(both, /holds 2 statements and "data"/);
    const noList = await call(t, 'db.execute', { statement: 'INSERT INTO s VALUES (?)' });
    expectRefused(noList, /has \? placeholders: give "data" as a list/);
    expect(await ok(t, 'db.select', { query: 'SELECT count(*) AS n FROM s' })).toEqual([{ n: 3 }]);
  });

  it("a call's engine overrides db.engine and is masked in the run history", async () => {
    const other = join(dir, 'other.db');
    await ok(t, 'db.execute', { engine: `sqlite:///${other}`, statement: 'CREATE TABLE o (x)' });
    expect(existsSync(other)).toBe(true);
    const history = JSON.stringify((await call(t, 'runs.list', {})).output);
    expect(history).toContain('db.execute');
    expect(history).not.toContain('other.db');
    expect(history).toContain('[redacted]');
  });
});

describe('db without a default engine', () => {
  it('asks for one, naming the argument and the configuration key', async () => {
    const bare = await dbApp('db: {}\n');
    try {
      const res = await call(bare, 'db.select', { query: 'SELECT 1' });
      expectRefused(res, /no engine: pass "engine" .* or set db\.engine/);
    } finally {
      await bare.close();
    }
  });
});
