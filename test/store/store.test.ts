import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/db.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { Store } from '../../src/store/store.ts';
import { tempDir } from '../helpers/service.ts';

describe('store', () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it('applies migrations once and records them', () => {
    const db = new DatabaseSync(':memory:');
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(migrate(db)).toBe(0);
    const rows = db.prepare('SELECT version FROM schema_migrations').all();
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('refuses a database from a newer Pipit without touching it', () => {
    const db = new DatabaseSync(':memory:');
    migrate(db);
    db.prepare('INSERT INTO schema_migrations VALUES (999, ?, 0)').run('future');
    expect(() => migrate(db)).toThrow(/newer than this Pipit knows/);
  });

  it('keeps variables as typed JSON across reopening', () => {
    const path = join(dir, 'p.db');
    const a = Store.open(path);
    a.variables.set('n', 1.5);
    a.variables.set('obj', { on: true, list: [1, 'x'] });
    a.variables.set('nothing', null);
    void a.close();
    const b = Store.open(path);
    expect(b.variables.all()).toEqual({ n: 1.5, nothing: null, obj: { on: true, list: [1, 'x'] } });
    expect(b.variables.unset('n')).toBe(true);
    expect(b.variables.unset('n')).toBe(false);
    void b.close();
  });

  it('sees writes from another connection through changedElsewhere()', () => {
    const path = join(dir, 'p.db');
    const a = Store.open(path);
    const b = Store.open(path);
    expect(a.changedElsewhere()).toBe(false);
    a.variables.set('x', 1);
    expect(a.changedElsewhere()).toBe(false);
    expect(b.changedElsewhere()).toBe(true);
    expect(b.changedElsewhere()).toBe(false);
    void a.close();
    void b.close();
  });

  it('removes sessions and tokens with their user, and user names are case-insensitive', () => {
    const s = Store.open(join(dir, 'p.db'));
    const u = s.users.create('Ada', 'hash');
    expect(() => s.users.create('ada', 'hash')).toThrow(/already exists/);
    expect(() => s.users.create('a b', 'hash')).toThrow(/not allowed/);
    s.sessions.create({
      id: 'sid',
      user_id: u.id,
      csrf_token: 'c',
      expires_at: Date.now() / 1000 + 60,
    });
    s.tokens.create({ id: 'tid', user_id: u.id, name: 'n', expires_at: null });
    s.users.remove(u.id);
    expect(s.sessions.get('sid')).toBeUndefined();
    expect(s.tokens.get('tid')).toBeUndefined();
    void s.close();
  });

  it('drops expired sessions on sight', () => {
    const s = Store.open(join(dir, 'p.db'));
    const u = s.users.create('ada', 'hash');
    s.sessions.create({
      id: 'old',
      user_id: u.id,
      csrf_token: 'c',
      expires_at: Date.now() / 1000 - 1,
    });
    expect(s.sessions.get('old')).toBeUndefined();
    expect(s.db.prepare('SELECT COUNT(*) AS n FROM sessions').get()!.n).toBe(0);
    void s.close();
  });
});
