// /healthz and /readyz: unauthenticated liveness and readiness endpoints.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeApp, registerAndToken } from '../helpers/service.ts';
import type { TestApp } from '../helpers/service.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeApp();
});
afterEach(() => t.close());

describe('/healthz and /readyz', () => {
  it('answer without credentials, with the status only and the API headers', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('/readyz is 503 while the database cannot take a write lock', async () => {
    // Another connection holds the write lock; a short busy timeout keeps the check quick.
    const other = new DatabaseSync(join(t.dir, 'data', 'pipit.db'));
    t.service.store.db.exec('PRAGMA busy_timeout = 50');
    other.exec('BEGIN IMMEDIATE');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe("/readyz and the plugins' links", () => {
  it('tells a caller with credentials which plugin is not connected, and stays ready', async () => {
    // Nothing listens on port 1: the bridge to Home Assistant stays down.
    const app = await makeApp("homeassistant: {url: 'http://127.0.0.1:1', token: not-a-token}");
    try {
      const token = await registerAndToken(app.app);
      const auth = { authorization: `Bearer ${token}` };
      await vi.waitFor(async () => {
        const res = await app.app.inject({ method: 'GET', url: '/readyz', headers: auth });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          status: 'ready',
          plugins: { homeassistant: { connected: false } },
        });
      });
      // Without credentials, or with bad ones: the status alone.
      for (const headers of [{}, { authorization: 'Bearer nope' }]) {
        const res = await app.app.inject({ method: 'GET', url: '/readyz', headers });
        expect(res.json()).toEqual({ status: 'ready' });
      }
    } finally {
      await app.close();
    }
  });
});
