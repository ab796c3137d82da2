import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import type { HomeAssistantEmulator } from '../../../tools/homeassistant-emulator/index.ts';
import { makeApp } from '../../helpers/service.ts';
import { call, haApp, haStatus } from './helpers.ts';

describe('homeassistant with bad settings', () => {
  let ha: HomeAssistantEmulator;
  beforeAll(async () => {
    ha = await startHomeAssistantEmulator({ token: 'right' });
  });
  afterAll(async () => {
    await ha?.close();
  });

  it('a bad token: status and calls name homeassistant.token and the profile page, no fast retry', async () => {
    const t = await haApp(ha.url, 'wrong');
    try {
      expect(haStatus(t)!.connected).toBe(false);
      expect(haStatus(t)!.detail).toContain('homeassistant.token');
      expect(haStatus(t)!.detail).toMatch(/retrying in 300 s/);
      const got = await call(t, 'homeassistant.get_states');
      expect(got.code).toBe('UNAVAILABLE');
      expect(got.errors[0]).toContain('homeassistant.token');
      expect(got.errors[0]).toContain('long-lived access token');
      expect(got.errors[0]).toContain('profile');
      expect(ha.control.authFailures()).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('a dead link (pings unanswered) is noticed, reported, and reconnected once it answers', async () => {
    const t = await haApp(ha.url, 'right', {
      section: '  heartbeat_seconds: 0.2\n',
    });
    try {
      expect(haStatus(t)!.connected).toBe(true);
      ha.control.stall(true);
      await vi.waitFor(() => expect(haStatus(t)!.connected).toBe(false), { timeout: 8_000 });
      expect(haStatus(t)!.detail).toContain('no pong within 2 s: the link is dead');
      ha.control.stall(false);
      await vi.waitFor(() => expect(haStatus(t)!.connected).toBe(true), { timeout: 8_000 });
      expect((await call(t, 'homeassistant.get_states')).errors).toEqual([]);
    } finally {
      ha.control.stall(false);
      await t.close();
    }
  });

  it('an unreachable URL: the plugin starts, calls say it cannot connect and where', async () => {
    const down = await startHomeAssistantEmulator();
    const url = down.url;
    await down.close();
    const t = await haApp(url, 'x');
    try {
      const got = await call(t, 'homeassistant.get_states');
      expect(got.code).toBe('UNAVAILABLE');
      expect(got.errors[0]).toContain(
        `cannot connect to ws://127.0.0.1:${down.port}/api/websocket`,
      );
      expect(got.errors[0]).toContain('ECONNREFUSED');
    } finally {
      await t.close();
    }
  });

  it('an action called without the section says what to add', async () => {
    const t = await makeApp('');
    try {
      const got = await call(t, 'homeassistant.get_states');
      expect(got.errors[0]).toContain('add a "homeassistant:" section');
    } finally {
      await t.close();
    }
  });
});
