import { describe, expect, test } from 'vitest';
import type { Harness } from './support/harness.ts';
import { ALL, useHarness } from './support/harness.ts';

let h: Harness;
useHarness((harness) => (h = harness), { options: { tokenTtlSeconds: 600 }, reset: false });

const REDIRECT = 'http://127.0.0.1:5173/callback';

describe('Web API gatekeeping', () => {
  test('a missing scope is 403 "Insufficient client scope"', async () => {
    const res = await h.call('GET', '/me/player/devices', {
      token: h.tokenFor(['user-read-private']),
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: { status: 403, message: 'Insufficient client scope' } });
  });

  test('endpoints removed for Development Mode are 403 Forbidden', async () => {
    const tracks = await h.call('GET', `/playlists/${h.seed.bigPlaylistId}/tracks`);
    expect(tracks.json).toEqual({ error: { status: 403, message: 'Forbidden' } });
    expect(
      (await h.call('POST', '/users/pipit-tester/playlists', { body: { name: 'x' } })).status,
    ).toBe(403);
    expect((await h.call('PUT', '/me/tracks', { body: { ids: ['x'] } })).status).toBe(403);
  });

  test('unknown paths are 404 "Service not found"', async () => {
    const res = await fetch(`${h.emu.apiUrl}/nothing/here`, {
      headers: { authorization: `Bearer ${h.token}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { status: 404, message: 'Service not found' } });
  });

  test('users outside an app allow-list get 403', async () => {
    const app = h.emu.control.registerApp({
      redirectUris: [REDIRECT],
      allowedUsers: ['other-tester'],
    });
    const token = h.emu.control.mintToken({ clientId: app.clientId, scopes: ALL }).accessToken;
    expect((await h.call('GET', '/me', { token })).status).toBe(403);
    const other = h.emu.control.mintToken({
      clientId: app.clientId,
      scopes: ALL,
      userId: 'other-tester',
    }).accessToken;
    expect((await h.call('GET', '/me', { token: other })).json.id).toBe('other-tester');
  });

  test('/me omits the fields removed in Development Mode; extended mode has them', async () => {
    const dev = (await h.call('GET', '/me')).json;
    expect(dev).toMatchObject({
      id: 'pipit-tester',
      type: 'user',
      uri: 'spotify:user:pipit-tester',
    });
    expect(dev.account_id).toBeTruthy();
    expect(dev).not.toHaveProperty('email');
    expect(dev).not.toHaveProperty('product');
    h.emu.control.configure({ mode: 'extended' });
    const ext = (await h.call('GET', '/me')).json;
    h.emu.control.configure({ mode: 'development' });
    expect(ext.product).toBe('premium');
    expect(ext.country).toBe('SE');
  });
});
