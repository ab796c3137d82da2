import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { asSentence } from '../../web/src/lib/format.ts';
import { registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';

interface ReloadAnswer {
  reloaded?: boolean;
  warnings?: string[];
  restart_needed?: string[];
  response?: { errors: string[] };
}

// Settings → Integrations without a music.spotify section, and Settings → Configuration's reload
// button against the real `POST /reload`, with the configuration file edited under it.
describe('web UI: Settings → Integrations and Configuration', () => {
  let e2e: E2e;
  let page: Page;
  let original: string;

  beforeAll(async () => {
    e2e = await startE2e();
    original = readFileSync(e2e.configPath, 'utf8');
    await registerViaApi(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, '/settings/integrations');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  const sections = () => page.getByRole('navigation', { name: 'Settings sections' });

  /** Clicks "Reload configuration" and returns the server's answer. */
  async function reload(): Promise<{ status: number; body: ReloadAnswer }> {
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/reload');
    await page.getByRole('button', { name: 'Reload configuration' }).click();
    const res = await answer;
    return { status: res.status(), body: (await res.json()) as ReloadAnswer };
  }

  it('says Spotify is not configured and how to configure it', async () => {
    const card = page.getByRole('region', { name: 'Spotify' });
    await card.getByText('Not configured', { exact: true }).waitFor();
    await card.getByText('has no configuration section').waitFor();
    const example = await card.getByLabel('Configuration example').textContent();
    expect(example).toContain('music.spotify:');
    expect(example).toContain("client_id: <your app's client ID>");
    expect(example).toContain('client_secret: <its secret>   # optional');
    expect(example).toContain(`redirect_uri: ${e2e.url}/spotify/auth_callback`);
    await expect(card.getByRole('button', { name: 'Connect Spotify' }).count()).resolves.toBe(0);
    await expect(page.title()).resolves.toBe('Integrations · Settings · Pipit');
    await e2e.screenshot(page, 'settings-integrations-unconfigured');
  }, 60_000);

  it('reloads an unchanged configuration; the confirmation goes by itself', async () => {
    await sections().getByRole('link', { name: 'Configuration' }).click();
    await page.waitForURL('**/settings/configuration');
    const { status, body } = await reload();
    expect(status).toBe(200);
    expect(body).toEqual({ reloaded: true, warnings: [], restart_needed: [] });
    const done = page.getByText('Configuration reloaded: the new settings are in use.');
    await done.waitFor();
    await done.waitFor({ state: 'detached' });
  }, 60_000);

  it('shows the warnings and the settings that need a restart, until dismissed', async () => {
    appendFileSync(
      e2e.configPath,
      'procedure.later:\n  - action: music.spotify.play\nmusic.spotify:\n  client_id: abc\n',
    );
    const { status, body } = await reload();
    expect(status).toBe(200);
    expect(body.restart_needed).toContain('music.spotify');
    expect(body.warnings?.length).toBeGreaterThan(0);
    const outcome = page.getByRole('status').filter({ hasText: 'Configuration reloaded.' });
    await outcome.waitFor();
    for (const warning of body.warnings!)
      await outcome.getByRole('list', { name: 'Warnings' }).getByText(warning).waitFor();
    for (const setting of body.restart_needed!)
      await outcome.getByRole('list', { name: 'Restart needed' }).getByText(setting).waitFor();
    await outcome.getByText('These changes apply only after Pipit restarts:').waitFor();
    await e2e.screenshot(page, 'settings-reload', { docs: true });
    await outcome.getByRole('button', { name: 'Dismiss' }).click();
    await outcome.waitFor({ state: 'detached' });
  }, 60_000);

  it('shows why a configuration is refused; leaving the section clears it', async () => {
    writeFileSync(e2e.configPath, `${original}logging: {level: loud}\n`);
    const { status, body } = await reload();
    expect(status).toBe(400);
    const alert = page.getByRole('alert');
    await alert
      .getByText('The configuration was not reloaded: the running one is unchanged.')
      .waitFor();
    expect(body.response!.errors.length).toBeGreaterThan(0);
    for (const error of body.response!.errors)
      await expect(alert.textContent()).resolves.toContain(asSentence(error));
    await sections().getByRole('link', { name: 'Tokens' }).click();
    await sections().getByRole('link', { name: 'Configuration' }).click();
    await page.getByRole('button', { name: 'Reload configuration' }).waitFor();
    await expect(page.getByRole('alert').count()).resolves.toBe(0);

    writeFileSync(e2e.configPath, original);
    expect((await reload()).status).toBe(200);
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
