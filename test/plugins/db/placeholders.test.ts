import { describe, expect, it } from 'vitest';
import { PipitError } from '../../../src/plugins/api/index.ts';
import { parseEngineUrl } from '../../../src/plugins/db/engine-url.ts';
import { bindData } from '../../../src/plugins/db/placeholders.ts';

// The two parsers of the db plugin: placeholders in the caller's SQL, and engine URLs.

const bind = (
  sql: string,
  data?: Record<string, unknown> | unknown[],
  dialect: 'sqlite' | 'postgresql' = 'postgresql',
) => bindData('db.select', sql, data, dialect);

describe('db placeholders', () => {
  it('numbers :name placeholders for each engine, one value per name', () => {
    expect(
      bind('SELECT * FROM t WHERE a = :a AND b = :b OR a = :a', { a: 1, b: 'x', unused: 3 }),
    ).toEqual({
      sql: 'SELECT * FROM t WHERE a = $1 AND b = $2 OR a = $1',
      params: [1, 'x'],
      statements: 1,
    });
    expect(bind('SELECT :a, :b', { a: 1, b: 2 }, 'sqlite').sql).toBe('SELECT ?1, ?2');
  });

  it('numbers ? placeholders when data is a list', () => {
    expect(bind('SELECT ?, ?', ['a', 'b'])).toMatchObject({
      sql: 'SELECT $1, $2',
      params: ['a', 'b'],
    });
    expect(bind('SELECT ?, ?', ['a', 'b'], 'sqlite').sql).toBe('SELECT ?1, ?2');
  });

  it('leaves quoted text, quoted names, comments, casts and dollar quotes alone', () => {
    const sql = `SELECT ':a', ":a", x::text, $$ :a $$, $tag$ ' :a $tag$, E'\\' :a', /* :a /* :a */ */ :a -- :a\n`;
    expect(bind(sql, { a: 1 })).toMatchObject({
      sql: `SELECT ':a', ":a", x::text, $$ :a $$, $tag$ ' :a $tag$, E'\\' :a', /* :a /* :a */ */ $1 -- :a\n`,
      params: [1],
    });
    // SQLite: [names] and `names`, comments that do not nest.
    expect(bind('SELECT [:a], `:a`, /* /* :a */ :a', { a: 2 }, 'sqlite').sql).toBe(
      'SELECT [:a], `:a`, /* /* :a */ ?1',
    );
  });

  it('\\: is a literal colon; a ? is the jsonb operator in PostgreSQL unless data is a list', () => {
    expect(bind('SELECT a[1\\:n] FROM t').sql).toBe('SELECT a[1:n] FROM t');
    expect(bind("SELECT j ? 'k' FROM t WHERE id = :id", { id: 1 }).sql).toBe(
      "SELECT j ? 'k' FROM t WHERE id = $1",
    );
  });

  it('counts statements, ignoring semicolons in text and empty ones', () => {
    expect(bind("SELECT ';'; ; -- x;\n").statements).toBe(1);
    expect(bind('CREATE TABLE a (x INT); INSERT INTO a VALUES (1);').statements).toBe(2);
  });

  it('refuses a name missing from data, names with a list, and a count that does not match', () => {
    const refused = (fn: () => unknown, message: RegExp) => {
      expect(fn).toThrow(PipitError);
      expect(fn).toThrow(message);
    };
    refused(() => bind('SELECT :a'), /uses :a but "data" has no "a"/);
    refused(() => bind('SELECT :a', [1]), /uses :a but "data" is a list/);
    refused(
      () => bind('SELECT ?', [1, 2]),
      /has 2 value\(s\) but the statement has 1 \? placeholder/,
    );
    refused(() => bind('SELECT ?', undefined, 'sqlite'), /give "data" as a list/);
  });
});

describe('db engine URLs (SQLAlchemy rules)', () => {
  it('reads SQLite paths: three slashes relative, four absolute, none or :memory: in memory', () => {
    expect(parseEngineUrl('sqlite:///data/main.db')).toMatchObject({
      kind: 'sqlite',
      path: 'data/main.db',
    });
    expect(parseEngineUrl('sqlite:////var/lib/x.db')).toMatchObject({ path: '/var/lib/x.db' });
    expect(parseEngineUrl('sqlite://')).toMatchObject({ path: ':memory:' });
    expect(parseEngineUrl('sqlite:///:memory:')).toMatchObject({ path: ':memory:' });
    expect(parseEngineUrl('sqlite+pysqlite:////x.db?timeout=3')).toMatchObject({
      path: '/x.db',
      busyTimeout: 3,
    });
    expect(() => parseEngineUrl('sqlite:////x.db?uri=true')).toThrow(
      /option "uri" is not supported/,
    );
  });

  it('reads PostgreSQL URLs with any SQLAlchemy driver, and labels them without the password', () => {
    for (const scheme of ['postgresql', 'postgres', 'postgresql+pg8000', 'postgresql+psycopg2'])
      expect(
        parseEngineUrl(`${scheme}://dbuser:dbpass@dbhost:5433/dbname?sslmode=require`),
      ).toEqual({
        kind: 'postgresql',
        connectionString: 'postgresql://dbuser:dbpass@dbhost:5433/dbname?sslmode=require',
        label: 'postgresql://dbuser:***@dbhost:5433/dbname',
      });
    expect(parseEngineUrl('postgresql://dbhost/db').label).toBe('postgresql://dbhost/db');
    // A Unix socket, as SQLAlchemy writes it: no host, the socket's folder in ?host=.
    expect(parseEngineUrl('postgresql+psycopg2://u:pw@/home?host=/var/run/postgresql')).toEqual({
      kind: 'postgresql',
      connectionString: 'postgresql://u:pw@/home?host=/var/run/postgresql',
      label: 'postgresql://u:***@/home',
    });
  });

  it('refuses other schemes and non-URLs without repeating them', () => {
    expect(() => parseEngineUrl('mysql://root:hunter2@h/db')).toThrow(
      /^engine scheme "mysql" is not supported/,
    );
    for (const bad of ['hunter2', 'postgresql://u:hunter2@[::1/db'])
      try {
        parseEngineUrl(bad);
        expect.unreachable();
      } catch (err) {
        expect((err as Error).message).not.toContain('hunter2');
        expect((err as PipitError).code).toBe('INVALID_ARGUMENTS');
      }
  });
});
