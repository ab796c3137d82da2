import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FinishedRun } from '../../src/core/runs.ts';
import { WalCheckpointer } from '../../src/store/checkpointer.ts';
import { openDatabase } from '../../src/store/db.ts';
import { Store } from '../../src/store/store.ts';
import { finishedRun } from '../helpers/runs.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pipit-ckpt-'));
  dirs.push(dir);
  return join(dir, 'pipit.db');
}

let id = Date.now() * 1024;
function batch(n: number): FinishedRun[] {
  return Array.from({ length: n }, () =>
    // Incompressible-ish text, so that the WAL grows as it would under real traffic.
    finishedRun({ id: ++id, args: { text: `${Math.random()}`.repeat(20) }, output: null }),
  );
}

const pragma = (db: ReturnType<typeof openDatabase>, name: string) =>
  Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[0];

describe('the WAL checkpoint thread', () => {
  it('checkpoints in its own thread, lets the WAL start over, and loses no run', async () => {
    const path = tempDb();
    const store = Store.open(path);
    try {
      let held = 0;
      // ~12 MB of history, written as the run history writes it: waiting while a checkpoint runs.
      for (let i = 0; i < 120; i++) {
        while (store.runs.busy) {
          held++;
          await sleep(1);
        }
        store.runs.insert(batch(256), 16384);
      }
      expect(held).toBeGreaterThan(0); // at least one checkpoint ran while we wrote
      expect(store.runs.count()).toBe(120 * 256);
      // The service's own connection no longer checkpoints every 1000 pages...
      expect(pragma(store.db, 'wal_autocheckpoint')).toBe(16_384);
      // ...and the WAL was started over instead of growing with every write (12 MB written).
      expect(statSync(`${path}-wal`).size).toBeLessThan(8 << 20);
    } finally {
      await store.close();
    }
    // Closed last, the service's connection folded the WAL into the database and removed it.
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(8 << 20);
    const reopened = Store.open(path);
    expect(reopened.runs.count()).toBe(120 * 256);
    await reopened.close();
  });

  it('falls back to SQLite checkpointing in the writes when its thread cannot start', async () => {
    const path = tempDb();
    const db = openDatabase(path);
    const errors: Error[] = [];
    // A path the thread cannot open: the worker fails, the connection checkpoints as before.
    const checkpointer = new WalCheckpointer(db, join(path, 'not-a-dir', 'x.db'), (err) =>
      errors.push(err),
    );
    checkpointer.wrote(8 << 20);
    await vi.waitFor(
      () => expect(errors[0]?.message).toMatch(/unable to open|not a directory|no such file/i),
      { timeout: 5000, interval: 10 },
    );
    await vi.waitFor(() => expect(checkpointer.busy).toBe(false), { timeout: 5000, interval: 10 });
    expect(pragma(db, 'wal_autocheckpoint')).toBe(1000);
    await checkpointer.close();
    db.close();
  });

  it('ends its thread when no checkpoint was asked for a while, and starts one for the next', async () => {
    const path = tempDb();
    const db = openDatabase(path);
    const errors: Error[] = [];
    const checkpointer = new WalCheckpointer(db, path, (err) => errors.push(err), { idleMs: 50 });
    try {
      checkpointer.wrote(8 << 20);
      expect(checkpointer.running).toBe(true);
      await vi.waitFor(() => expect(checkpointer.running).toBe(false), {
        timeout: 10_000,
        interval: 10,
      });
      // Ended for being idle, not failed: the connection keeps leaving checkpoints to a thread...
      expect(pragma(db, 'wal_autocheckpoint')).toBe(16_384);
      // ...and the next one starts a new thread, which checkpoints.
      checkpointer.wrote(8 << 20);
      expect(checkpointer.running).toBe(true);
      expect(checkpointer.busy).toBe(true);
      await vi.waitFor(() => expect(checkpointer.busy).toBe(false), {
        timeout: 10_000,
        interval: 10,
      });
      expect(errors).toEqual([]);
    } finally {
      await checkpointer.close();
    }
    expect(pragma(db, 'wal_autocheckpoint')).toBe(1000);
    db.close();
  });

  it('stays out of the way of an in-memory database and a quiet service', async () => {
    const store = Store.open(':memory:');
    store.runs.insert(batch(10), 16384);
    expect(store.runs.busy).toBe(false);
    expect(pragma(store.db, 'wal_autocheckpoint')).toBe(1000);
    await store.close();
  });
});
