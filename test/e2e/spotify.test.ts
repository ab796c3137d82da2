import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSpotifyEmulator } from '../../tools/spotify-emulator/index.ts';
import type { SpotifyEmulator } from '../../tools/spotify-emulator/index.ts';
import { freePort } from '../helpers/net.ts';
import { apiToken, PHONE, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

// Settings → Integrations → Spotify against the emulator: a real `pipit start` whose plugin talks
// to the emulator's Accounts service and Web API (PKCE: no client secret), and Chromium following
// the whole authorization, the emulator's /authorize page included (it consents at once).
describe('web UI: connecting Spotify', () => {
  let emu: SpotifyEmulator;
  let e2e: E2e;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    // The redirect URI names the service's port, so the port is chosen before it starts.
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/spotify/auth_callback`;
    emu = await startSpotifyEmulator({ app: { redirectUris: [redirect] } });
    e2e = await startE2e(
      `music.spotify:\n  client_id: ${emu.clientId}\n  redirect_uri: ${redirect}\n  api_url: ${emu.apiUrl}\n  auth_url: ${emu.accountsUrl}\n`,
      { port },
    );
    await registerViaApi(e2e.url);
    token = await apiToken(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, '/settings/integrations');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
    await emu?.close();
  });

  const card = () => page.getByRole('region', { name: 'Spotify' });

  async function apiStatus(): Promise<{ connected: boolean; user: { id: string } | null }> {
    const res = await fetch(`${e2e.url}/spotify/auth/status`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { connected: boolean; user: { id: string } | null };
  }

  it('shows a configured plugin that is not connected yet', async () => {
    await card().getByText('Not connected', { exact: true }).waitFor();
    await card().getByText(emu.clientId).waitFor();
    await card().getByText(`${e2e.url}/spotify/auth_callback`).waitFor();
    await expect(card().getByRole('button', { name: 'Disconnect' }).count()).resolves.toBe(0);
  }, 60_000);

  it('connects through Spotify’s authorization page and comes back connected', async () => {
    await card().getByRole('button', { name: 'Connect Spotify' }).click();
    // The emulator's /authorize consents and redirects to the service's callback page.
    await page.getByRole('heading', { name: 'Spotify connected' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/spotify/auth_callback');
    await page
      .getByText('Pipit is now authorized to use Spotify as "Pipit Tester" (pipit-tester).')
      .waitFor();
    await page.getByRole('link', { name: 'Back to Settings → Integrations' }).waitFor();
    await e2e.screenshot(page, 'spotify-callback', { docs: true });

    // It returns to Settings → Integrations by itself.
    await page.waitForURL(`${e2e.url}/settings/integrations`);
    await card().getByText('Connected as Pipit Tester.').waitFor();
    await card().getByText('Connected', { exact: true }).waitFor();
    await card().getByText('14 granted').waitFor();
    await card()
      .getByText(/valid until .* · renewed automatically/)
      .waitFor();
    await card().getByText('Authorization code with PKCE (no client secret)').waitFor();
    await expect(apiStatus()).resolves.toMatchObject({
      connected: true,
      user: { id: 'pipit-tester' },
    });
    await e2e.screenshot(page, 'settings-spotify', { docs: true });

    // The tokens work: an action reaches the emulator's Web API.
    const res = await fetch(`${e2e.url}/execute`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'request', action: 'music.spotify.get_devices' }),
    });
    const body = (await res.json()) as { response: { output: { name: string }[]; errors: [] } };
    expect(body.response.errors).toEqual([]);
    expect(body.response.output.map((d) => d.name)).toContain('Living Room Speaker');
  }, 60_000);

  it('fits a phone, connected', async () => {
    const phone = await e2e.newPage(PHONE);
    await signIn(phone.page, '/settings/integrations');
    await phone.page.getByText('Connected as Pipit Tester.').waitFor();
    await phone.page.getByText('14 granted').click();
    await phone.page.getByText('user-read-playback-position').waitFor();
    await expectFitsPhone(phone.page, 'Settings → Integrations, connected');
    await e2e.screenshot(phone.page, 'phone-spotify', { docs: true });
    await phone.context.close();
  }, 60_000);

  it('says it is connected already when asked to connect again, and offers a reconnect', async () => {
    await card().getByRole('button', { name: 'Reconnect' }).click();
    const confirm = card().getByRole('group', { name: 'Reconnect Spotify' });
    await confirm
      .getByText('Spotify is already connected as Pipit Tester.', { exact: false })
      .waitFor();
    const go = confirm.getByRole('button', { name: 'Continue to Spotify' });
    await expect(go.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(apiStatus()).resolves.toMatchObject({ connected: true });
  }, 60_000);

  it('disconnects after a confirmation; the note about it goes by itself', async () => {
    await card().getByRole('button', { name: 'Disconnect' }).click();
    const confirm = card().getByRole('group', { name: 'Disconnect Spotify' });
    await confirm.getByText('Pipit deletes its tokens').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(apiStatus()).resolves.toMatchObject({ connected: true });

    await card().getByRole('button', { name: 'Disconnect' }).click();
    await confirm.getByRole('button', { name: 'Yes, disconnect' }).click();
    await card().getByText('Not connected', { exact: true }).waitFor();
    const note = card().getByText('Spotify disconnected: Pipit deleted its tokens.');
    await note.waitFor();
    await expect(apiStatus()).resolves.toMatchObject({ connected: false, user: null });
    await note.waitFor({ state: 'detached' });
    await card().getByRole('button', { name: 'Connect Spotify' }).waitFor();
  }, 60_000);

  it('shows a refused authorization on the callback page, with the way back', async () => {
    emu.control.configure({ authorizeDecision: 'deny' });
    try {
      await card().getByRole('button', { name: 'Connect Spotify' }).click();
      await page.getByRole('heading', { name: 'Spotify authorization failed' }).waitFor();
      await page
        .getByText('Spotify did not authorize Pipit: access_denied (access was declined')
        .waitFor();
      await e2e.screenshot(page, 'spotify-callback-error');
      await page.getByRole('link', { name: 'Back to Settings → Integrations' }).click();
      await page.waitForURL(`${e2e.url}/settings/integrations`);
      await card().getByText('Not connected', { exact: true }).waitFor();
    } finally {
      emu.control.configure({ authorizeDecision: 'allow' });
    }
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
