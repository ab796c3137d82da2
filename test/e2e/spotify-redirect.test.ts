import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSpotifyEmulator } from '../../tools/spotify-emulator/index.ts';
import type { SpotifyEmulator } from '../../tools/spotify-emulator/index.ts';
import { freePort } from '../helpers/net.ts';
import { registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';

// Connect with no redirect_uri configured, on a port other than 8008, from a browser that opened
// Pipit at localhost: Spotify calls back on the loopback IP literal of the service's own port, and
// the user lands back on localhost, where their session is, signed in.
describe('web UI: connecting Spotify on any port, browsing at localhost', () => {
  let emu: SpotifyEmulator;
  let e2e: E2e;
  let page: Page;
  let port: number;
  let redirect: string;

  beforeAll(async () => {
    port = await freePort();
    redirect = `http://127.0.0.1:${port}/spotify/auth_callback`;
    // The Spotify app has exactly the address the banner and the UI tell the user to register.
    emu = await startSpotifyEmulator({ app: { redirectUris: [redirect] } });
    e2e = await startE2e(
      `music.spotify:\n  client_id: ${emu.clientId}\n  api_url: ${emu.apiUrl}\n  auth_url: ${emu.accountsUrl}\n`,
      { port },
    );
    await registerViaApi(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, `http://localhost:${port}/settings/integrations`);
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
    await emu?.close();
  });

  const card = () => page.getByRole('region', { name: 'Spotify' });

  it('tells the user the exact redirect URI to register, in the banner and in the UI', async () => {
    expect(e2e.server.logs.join('\n')).toContain(
      `music.spotify: register ${redirect} as a redirect URI in the Spotify app`,
    );
    await card().getByText('Not connected', { exact: true }).waitFor();
    await card().getByText(redirect).waitFor();
  });

  it('connects, and returns to the localhost origin signed in', async () => {
    await card().getByRole('button', { name: 'Connect Spotify' }).click();
    await page.getByRole('heading', { name: 'Spotify connected' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/spotify/auth_callback`));
    // The page sends the user back by itself, to where they started.
    await page.waitForURL(`http://localhost:${port}/settings/integrations`, { timeout: 15_000 });
    await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
    await card().getByText('Connected', { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Sign in' }).count()).resolves.toBe(0);
  }, 60_000);
});
