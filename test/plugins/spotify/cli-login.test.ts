import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotifyLogin } from '../../../src/cli/spotify.ts';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import { authorize, ok, pluginState, spotifyApp, startEmu } from './helpers.ts';

let emu: SpotifyEmulator;

beforeAll(async () => {
  emu = await startEmu();
});
afterAll(async () => {
  await emu.close();
});

async function freePort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function login(t: Awaited<ReturnType<typeof spotifyApp>>, timeoutSeconds = 10) {
  const lines: string[] = [];
  let onUrl: (url: string) => void;
  const url = new Promise<string>((resolve) => (onUrl = resolve));
  const done = spotifyLogin(t.service, {
    timeoutSeconds,
    pollMs: 10,
    out: (line) => {
      lines.push(line);
      if (line.startsWith('http')) onUrl(line);
    },
  });
  return { lines, url, done };
}

describe('pipit spotify login', () => {
  it('serves the callback itself when the redirect port is free', async () => {
    const spare = await freePort();
    await spare.close();
    const t = await spotifyApp(emu, {
      redirect_uri: `http://127.0.0.1:${spare.port}/spotify/auth_callback`,
    });
    try {
      const run = login(t);
      const res = await fetch(await run.url, { redirect: 'manual' });
      const page = await fetch(res.headers.get('location')!);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('authorized');
      await run.done;
      expect(run.lines.at(-1)).toMatch(/authorized/);
      expect((await ok(t, 'get_devices')).length).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('waits for the running service (port taken) by polling the database', async () => {
    const busy = await freePort();
    const t = await spotifyApp(emu, {
      redirect_uri: `http://127.0.0.1:${busy.port}/spotify/auth_callback`,
    });
    try {
      const run = login(t);
      const res = await fetch(await run.url, { redirect: 'manual' });
      expect(run.lines.join('\n')).toMatch(/running Pipit service/);
      const cb = new URL(res.headers.get('location')!);
      // The service's own route receives it (here: the same app, as the service would).
      const answer = await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
      expect(answer.statusCode).toBe(200);
      await run.done;
    } finally {
      await busy.close();
      await t.close();
    }
  });

  it('says who is authorized already before starting again, and lets Spotify ask again', async () => {
    const busy = await freePort();
    const t = await spotifyApp(emu, {
      redirect_uri: `http://127.0.0.1:${busy.port}/spotify/auth_callback`,
    });
    try {
      expect((await authorize(t)).status).toBe(200);
      const run = login(t);
      const url = new URL(await run.url);
      expect(run.lines[0]).toMatch(
        /^Spotify is already authorized as "Pipit Tester" \(pipit-tester\) since .+, with 14 scopes\.$/,
      );
      expect(run.lines[1]).toMatch(/replaces it/);
      expect(url.searchParams.get('show_dialog')).toBe('true');
      // A refresh of the old authorization meanwhile is not mistaken for the new one.
      await pluginState(t).auth.refresh(pluginState(t).auth.tokens()!.access_token);
      url.searchParams.set('emulator_user', 'other-tester');
      const res = await fetch(url, { redirect: 'manual' });
      const cb = new URL(res.headers.get('location')!);
      await t.app.inject({ method: 'GET', url: `${cb.pathname}${cb.search}` });
      await run.done;
      expect(run.lines.at(-1)).toBe(
        'Spotify is authorized as "Other Tester" (other-tester): tokens stored.',
      );
    } finally {
      await busy.close();
      await t.close();
    }
  });

  it('times out with a clear message', async () => {
    const busy = await freePort();
    const t = await spotifyApp(emu, {
      redirect_uri: `http://127.0.0.1:${busy.port}/spotify/auth_callback`,
    });
    try {
      await expect(login(t, 0.05).done).rejects.toThrow(/no authorization arrived within 0.05 s/);
    } finally {
      await busy.close();
      await t.close();
    }
  });
});
