import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureLog, registerAndToken } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import { freePort } from '../../helpers/net.ts';
import { call } from '../call.ts';
import { startBroker } from '../mqtt/broker.ts';
import { dbApp, ok } from './db-app.ts';
import { startPostgres } from './postgres-server.ts';
import type { PostgresServer } from './postgres-server.ts';
import { engineScenarios } from './scenarios.ts';

// db on a real PostgreSQL (initdb + postgres in a temp dir, password authentication), through
// execute() as every transport calls it.

const PASSWORD = 'pg-Secret-4711';
let server: PostgresServer;
let t: TestApp;
let lines: Array<Record<string, unknown>>;
let label: string;

beforeAll(async () => {
  server = await startPostgres({ password: PASSWORD });
  label = `postgresql://${server.user}:***@127.0.0.1:${server.port}/postgres`;
  const captured = captureLog('debug');
  lines = captured.lines;
  t = await dbApp(`db:\n  engine: ${server.url}\n  statement_timeout: 1\n  connect_timeout: 2\n`, {
    log: captured.log,
  });
});
afterAll(async () => {
  await t?.close();
  await server?.stop();
});

describe('db on PostgreSQL', () => {
  engineScenarios(() => ({ t, label }));

  it('a wrong password is refused, and no message, log line or run record holds a password', async () => {
    const wrong = server.url.replace(PASSWORD, 'Wrong-Pass-0815');
    const res = await call(t, 'db.select', { engine: wrong, query: 'SELECT 1' });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors[0]).toMatch(
      new RegExp(
        `^db\\.select on postgresql://pipit:\\*\\*\\*@127\\.0\\.0\\.1:${server.port}/postgres: PostgreSQL refused the login: password authentication failed for user "pipit": fix the user or password in the engine URL`,
      ),
    );
    const history = JSON.stringify((await call(t, 'runs.list', {})).output);
    const everything = `${JSON.stringify(res.result)}${history}${JSON.stringify(lines)}`;
    expect(everything).toContain('password authentication failed');
    expect(everything).not.toContain('Wrong-Pass-0815');
    expect(everything).not.toContain(PASSWORD);
    // The right one, given per call, works.
    expect(
      await ok(t, 'db.select', { engine: server.url, query: 'SELECT current_user AS u' }),
    ).toEqual([{ u: 'pipit' }]);
  });

  it('a server that is down is UNAVAILABLE (503); the pool recovers once it is back', async () => {
    await ok(t, 'db.select', { query: 'SELECT 1 AS one' });
    await server.kill();
    try {
      const res = await call(t, 'db.select', { query: 'SELECT 1 AS one' });
      expect(res.code).toBe('UNAVAILABLE');
      expect(res.errors[0]).toMatch(
        new RegExp(`^db\\.select on ${label.replace(/[.*]/g, '\\$&')}: PostgreSQL is not`),
      );
      const http = await t.app.inject({
        method: 'POST',
        url: '/execute',
        headers: { authorization: `Bearer ${await registerAndToken(t.app)}` },
        payload: { type: 'request', action: 'db.select', args: { query: 'SELECT 1' } },
      });
      expect(http.statusCode).toBe(503);
    } finally {
      await server.start();
    }
    expect(await ok(t, 'db.select', { query: 'SELECT 1 AS one' })).toEqual([{ one: 1 }]);
    // The pooled connection the shutdown ended was logged, without the client it came from.
    const idle = lines.find((l) => /lost while idle/.test(String(l.msg)));
    expect(idle?.msg).toMatch(
      /^db: connection to postgresql:\/\/pipit:.*@127\.0\.0\.1:\d+\/postgres lost while idle/,
    );
    expect(idle?.err).toMatchObject({
      message: 'terminating connection due to administrator command',
      code: '57P01',
    });
    expect(Object.keys(idle?.err as object)).not.toContain('client');
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
    const nobody = `postgresql://pipit:x@127.0.0.1:${await freePort()}/postgres`;
    const refused = await call(t, 'db.select', { engine: nobody, query: 'SELECT 1' });
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.errors[0]).toMatch(/PostgreSQL is not reachable: .*ECONNREFUSED/);
  });

  it('a server that accepts and never answers is TIMEOUT after connect_timeout', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const res = await call(t, 'db.select', {
        engine: `postgresql://pipit:${PASSWORD}@127.0.0.1:${port}/postgres`,
        query: 'SELECT 1',
      });
      expect([res.code, res.reason]).toEqual(['ACTION_FAILED', 'TIMEOUT']);
      expect(res.errors[0]).toMatch(
        /^db\.select on postgresql:\/\/pipit:\*\*\*@127\.0\.0\.1:\d+\/postgres: .*timeout/,
      );
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("connects through the server's Unix socket, written as SQLAlchemy does (no host, ?host=)", async () => {
    const engine = `postgresql+psycopg2://pipit@/postgres?host=${server.socketDir}&port=${server.port}`;
    expect(await ok(t, 'db.select', { engine, query: 'SELECT current_user AS u' })).toEqual([
      { u: 'pipit' },
    ]);
  });

  it('a statement that runs past statement_timeout is TIMEOUT, and the pool goes on', async () => {
    const started = Date.now();
    const res = await call(t, 'db.select', { query: 'SELECT pg_sleep(5)' });
    expect([res.code, res.reason]).toEqual(['ACTION_FAILED', 'TIMEOUT']);
    expect(res.errors[0]).toMatch(
      /"SELECT pg_sleep\(5\)" ran out of time \(canceling statement due to statement timeout\): the limit is 1 s/,
    );
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await ok(t, 'db.select', { query: 'SELECT 2 AS two' })).toEqual([{ two: 2 }]);
  });

  it("values of the wrong type for a column are the server's own error; nothing is written", async () => {
    await ok(t, 'db.execute', {
      statement: 'CREATE TABLE typed (id INTEGER PRIMARY KEY, n INTEGER)',
    });
    const res = await call(t, 'db.insert', {
      table: 'typed',
      records: [
        { id: 1, n: 2 },
        { id: 2, n: 'many' },
      ],
    });
    expect(res.code).toBe('ACTION_FAILED');
    expect(res.errors[0]).toContain(
      `db.insert on ${label}: "INSERT INTO "typed" ("id", "n") …" failed: invalid input syntax for type integer: "many"`,
    );
    expect(await ok(t, 'db.select', { table: 'typed' })).toEqual([]);
    const upsert = await call(t, 'db.insert', {
      table: 'typed',
      records: [{ id: 1, n: 1 }],
      key_columns: ['n'],
      on_duplicate_update: true,
    });
    expect(upsert.errors[0]).toMatch(
      /no unique or exclusion constraint.*: key_columns must be the table's primary key or have a unique index/,
    );
  });

  it('answers PostgreSQL values as Platypush does: numbers, ISO dates, JSON, 0x bytes', async () => {
    await ok(t, 'db.execute', {
      statement:
        'CREATE TABLE public.shapes (big BIGINT, huge BIGINT, num NUMERIC(6,2), d DATE, ts TIMESTAMP, tz TIMESTAMPTZ, j JSONB, b BOOLEAN, raw BYTEA)',
    });
    await ok(t, 'db.execute', { statement: "SET TIME ZONE 'UTC'" });
    const written = await ok(t, 'db.insert', {
      table: 'public.shapes',
      records: [
        {
          big: 42,
          huge: '9007199254740993',
          num: 12.5,
          d: '2024-03-01',
          ts: '2024-03-01 10:20:30',
          tz: '2024-03-01T10:20:30Z',
          j: { on: true, list: [1, 2] },
          b: true,
          raw: '\\x00ff',
        },
      ],
    });
    expect(written).toEqual([
      {
        big: 42,
        huge: '9007199254740993',
        num: 12.5,
        d: '2024-03-01',
        ts: '2024-03-01T10:20:30',
        tz: expect.stringMatching(/^2024-03-01T\d\d:20:30[+-]\d\d:00$/),
        j: { on: true, list: [1, 2] },
        b: true,
        raw: '0x00ff',
      },
    ]);
  });

  it('placeholders skip casts, quoted text and dollar-quoted bodies; native $1 works with a list', async () => {
    const out = await ok(t, 'db.select', {
      query: "SELECT :v::int + 1 AS n, ':v' AS quoted, $q$ :v $q$ AS dollar, E'it\\'s :v' AS e",
      data: { v: '41' },
    });
    expect(out).toEqual([{ n: 42, quoted: ':v', dollar: ' :v ', e: "it's :v" }]);
    expect(
      await ok(t, 'db.select', { query: 'SELECT $1::text AS a, $2::int AS b', data: ['x', 2] }),
    ).toEqual([{ a: 'x', b: 2 }]);
    const jsonb = await ok(t, 'db.select', {
      query: `SELECT '{"a": 1}'::jsonb ? :key AS has`,
      data: { key: 'a' },
    });
    expect(jsonb).toEqual([{ has: true }]);
  });
});

describe("Platypush's sample hook: MQTT sensor readings stored in PostgreSQL", () => {
  it("runs as written in Platypush's config.yaml (postgresql+pg8000:// engine)", async () => {
    await ok(t, 'db.execute', {
      statement:
        'CREATE TABLE sensor_data (id SERIAL PRIMARY KEY, name TEXT, value DOUBLE PRECISION, source TEXT)',
    });
    const broker = await startBroker();
    let hooked: TestApp | undefined;
    try {
      const engine = `postgresql+pg8000://${server.user}:${PASSWORD}@127.0.0.1:${server.port}/postgres`;
      hooked = await dbApp(
        `mqtt:\n  host: 127.0.0.1\n  port: ${broker.port}\n  topics: [platypush/sensor]\ndb: {}\n` +
          `event.hook.OnSensorDataReceived:\n  if:\n    type: platypush.message.event.mqtt.MQTTMessageEvent\n    topic: platypush/sensor\n` +
          `  then:\n    - action: db.insert\n      args:\n        engine: ${engine}\n        table: sensor_data\n        records:\n` +
          `          - name: \${msg["name"]}\n            value: \${msg["value"]}\n            source: \${msg["source"]}\n`,
      );
      const app = hooked;
      await vi.waitFor(async () =>
        expect((await ok(app, 'mqtt.status')) as { state: string }).toMatchObject({
          state: 'connected',
        }),
      );
      await ok(app, 'mqtt.publish', {
        topic: 'platypush/sensor',
        msg: { name: 'temperature', value: 21.5, source: 'living-room' },
      });
      await vi.waitFor(async () =>
        expect(await ok(t, 'db.select', { table: 'sensor_data' })).toEqual([
          { id: 1, name: 'temperature', value: 21.5, source: 'living-room' },
        ]),
      );
    } finally {
      await hooked?.close();
      await broker.stop();
    }
  });
});

describe('db with a bad PostgreSQL URL', () => {
  it('is refused at start, without repeating the URL', async () => {
    const err = (await dbApp('db:\n  engine: "postgresql://u:s3cr%zz@[bad/db"\n').catch(
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(/db\.engine.*not a valid PostgreSQL URL/s);
    expect(err.message).not.toContain('s3cr');
  });
});
