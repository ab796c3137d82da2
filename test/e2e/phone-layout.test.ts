import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, PASSWORD, PHONE, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

interface CatalogAction {
  name: string;
  summary: string;
  params: { properties?: Record<string, unknown> };
}

// Every page at 390 px: nothing wider than the screen, a compact top bar. The Spotify plugin is
// configured (not connected), so its actions, with their long type labels and enumerations, are
// in the catalog.
describe('web UI on a phone-sized screen', () => {
  let e2e: E2e;
  let page: Page;
  let actions: CatalogAction[];

  beforeAll(async () => {
    e2e = await startE2e('music.spotify:\n  client_id: 0123456789abcdef0123456789abcdef\n');
    await registerViaApi(e2e.url);
    const res = await fetch(`${e2e.url}/execute`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${await apiToken(e2e.url)}`,
      },
      body: JSON.stringify({ type: 'request', action: 'inspect.get_all_plugins' }),
    });
    const plugins = ((await res.json()) as { response: { output: { actions: CatalogAction[] }[] } })
      .response.output;
    actions = plugins.flatMap((p) => p.actions);
    ({ page } = await e2e.newPage(PHONE));
    await signIn(page, '/execute');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('Execute fits with the parameter form of every action', async () => {
    expect(actions.length).toBeGreaterThan(50);
    expect(actions.map((a) => a.name)).toContain('music.spotify.search');
    const input = page.getByRole('combobox', { name: 'Action' });
    const paramNames = () => page.locator('.param-name').allTextContents();
    for (const action of actions) {
      await input.fill(action.name);
      await input.press('Escape');
      await page.locator('.action-summary', { hasText: action.summary }).waitFor();
      await expect.poll(paramNames).toEqual(Object.keys(action.params.properties ?? {}));
      await expectFitsPhone(page, `Execute ${action.name}`);
    }
  }, 120_000);

  it('Execute fits with a long output and the recent runs', async () => {
    const input = page.getByRole('combobox', { name: 'Action' });
    await input.fill('utils.echo');
    await input.press('Escape');
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    await page
      .getByLabel('Arguments (JSON object)')
      .fill(
        JSON.stringify({ long: 'x'.repeat(400), list: ['spotify:track:4uLU6hMCjMI75M1A2tKUQC'] }),
      );
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('region', { name: 'Output' }).getByText('Succeeded').waitFor();
    await page.getByRole('region', { name: 'Recent runs' }).getByText('utils.echo').waitFor();
    await expectFitsPhone(page, 'Execute with output');
  }, 60_000);

  it('folds the account into a button of the top bar', async () => {
    const account = page.getByRole('button', { name: 'Account' });
    await expect(account.getAttribute('aria-expanded')).resolves.toBe('false');
    const logOut = page.getByRole('button', { name: 'Log out' });
    await expect(logOut.isVisible()).resolves.toBe(false);
    await account.click();
    await logOut.waitFor();
    await expect(page.getByText('Signed in as ada').isVisible()).resolves.toBe(true);
    await expectFitsPhone(page, 'account panel open');
    await page.keyboard.press('Escape');
    await logOut.waitFor({ state: 'hidden' });
    await expect(account.getAttribute('aria-expanded')).resolves.toBe('false');
    // Escape pressed as soon as the panel shows closes it too (its listener is not a paint late).
    for (let i = 0; i < 5; i++) {
      await account.click();
      await logOut.waitFor();
      await page.keyboard.press('Escape');
      await logOut.waitFor({ state: 'hidden' });
    }
  }, 60_000);

  it('Events fits, with an event in the feed', async () => {
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.getByLabel('Subtype').fill('a_rather_long_subtype_name_for_a_phone');
    await page
      .getByLabel('Payload (JSON object)')
      .fill(JSON.stringify({ note: 'y'.repeat(300), nested: { deeper: { still: [1, 2, 3] } } }));
    await page.getByRole('button', { name: 'Send event' }).click();
    await page
      .getByRole('list', { name: 'Events' })
      .getByRole('listitem')
      .filter({ hasText: 'a_rather_long_subtype_name_for_a_phone' })
      .waitFor();
    await expectFitsPhone(page, 'Events');
  }, 60_000);

  it('Settings → Tokens fits, with a new token and the table', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Tokens', exact: true }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Token name').fill('a-token-with-a-fairly-long-name-on-a-phone');
    await page.getByRole('button', { name: 'Generate JWT token' }).click();
    await page.getByLabel('Your new token').waitFor();
    await page
      .getByRole('rowheader', { name: 'a-token-with-a-fairly-long-name-on-a-phone' })
      .waitFor();
    await expectFitsPhone(page, 'Settings → Tokens');
    await e2e.screenshot(page, 'phone-settings-tokens');
  }, 60_000);

  it('Settings → Integrations and → Configuration fit', async () => {
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    await sections.getByRole('link', { name: 'Integrations' }).click();
    await page.waitForURL('**/settings/integrations');
    await page.getByText('Not connected: nobody has authorized Pipit with Spotify yet.').waitFor();
    await expectFitsPhone(page, 'Settings → Integrations');
    await sections.getByRole('link', { name: 'Configuration' }).click();
    await page.getByRole('button', { name: 'Reload configuration' }).waitFor();
    await expectFitsPhone(page, 'Settings → Configuration');
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
