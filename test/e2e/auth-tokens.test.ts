import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { PASSWORD, PHONE, startE2e, USER } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

// One server and browser for the file; the tests run in order and share the signed-in page.
describe('web UI: registration, sessions and tokens', () => {
  let e2e: E2e;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2e();
    ({ context, page } = await e2e.newPage());
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('shows registration on the first visit, with validation messages', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await e2e.screenshot(page, 'register', { docs: true });

    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Enter a user name.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Use at least 8 characters.').isVisible()).resolves.toBe(true);
    // Errors are tied to their inputs, so screen readers announce them with the field.
    await expect(page.getByLabel('User name').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('User name').fill('bad name!');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByText('Use only letters, digits and . _ @ -').waitFor();
    await page.getByText('The passwords differ.').waitFor();
    await e2e.screenshot(page, 'register-validation');

    await page.getByLabel('User name').fill(USER);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.waitFor();
    for (const name of ['Execute', 'Events', 'Settings'])
      await expect(menu.getByRole('link', { name }).isVisible()).resolves.toBe(true);
    await page.getByRole('heading', { name: 'Execute', level: 1 }).waitFor();
  }, 60_000);

  it('stays signed in through a reload (session cookie), also on a client-side route', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText(`Signed in as ${USER}`).first().waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'session_token')?.httpOnly).toBe(true);
  }, 60_000);

  it('drops the answer to a wrong password once the password is edited', async () => {
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Generate JWT token' }).click();
    const refusal = page.getByText('the password is wrong');
    await refusal.waitFor();
    await page.getByLabel('Password').fill('');
    await refusal.waitFor({ state: 'detached' });
  }, 60_000);

  it('logs out, refuses a wrong password and logs back in', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('You have logged out.').waitFor();
    // After a reload the session is really gone and registration is closed.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    await page.getByLabel('User name').fill(USER);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await e2e.screenshot(page, 'login-error', { docs: true });

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  }, 60_000);

  let token = '';

  it('generates a JWT token in Settings → Tokens and it works against /execute', async () => {
    await page.getByRole('heading', { name: 'Tokens', exact: true }).waitFor();
    await page.getByText('No tokens yet.').waitFor();

    // A wrong re-entered password is refused without ending the session.
    await page.getByLabel('Password').fill('wrong password');
    await page.getByLabel('Token name').fill('e2e-script');
    await page.getByRole('button', { name: 'Generate JWT token' }).click();
    await page.getByText('the password is wrong').waitFor();

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Expires after (days)').fill('30');
    await page.getByRole('button', { name: 'Generate JWT token' }).click();
    const value = page.getByLabel('Your new token');
    await value.waitFor();
    token = await value.inputValue();
    expect(token.split('.')).toHaveLength(3);
    const curl = await page.getByLabel('Try it with curl').inputValue();
    expect(curl).toContain(`${e2e.url}/execute`);
    expect(curl).toContain(`Authorization: Bearer ${token}`);
    await page.getByRole('button', { name: 'Copy token' }).waitFor();
    await page.getByRole('cell', { name: 'Never' }).waitFor(); // last used
    await page.getByRole('rowheader', { name: 'e2e-script' }).waitFor();
    await e2e.screenshot(page, 'settings-tokens', { docs: true });

    const res = await fetch(`${e2e.url}/execute`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'request', action: 'utils.echo', args: { hello: 'world' } }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: { output: unknown; errors: string[] } };
    expect(body.response).toEqual({ output: { hello: 'world' }, errors: [] });
  }, 60_000);

  it('revokes the token, after which /execute answers 401', async () => {
    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    // The list shows that the token has been used now.
    const row = page.getByRole('row', { name: /e2e-script/ });
    await expect(row.getByRole('cell').nth(2).textContent()).resolves.not.toBe('Never');
    await page.getByRole('button', { name: 'Revoke token e2e-script' }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText('No tokens yet.').waitFor();
    // The confirmation is said, then goes by itself.
    const note = page.getByRole('status').filter({ hasText: 'Token e2e-script revoked.' });
    await note.waitFor();
    await note.waitFor({ state: 'detached' });

    const res = await fetch(`${e2e.url}/execute`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ type: 'request', action: 'utils.echo' }),
    });
    expect(res.status).toBe(401);
  }, 60_000);

  it('is usable on a phone-sized screen', async () => {
    const phone = await e2e.newPage(PHONE);
    await phone.page.goto('/settings');
    await phone.page.getByLabel('User name').fill(USER);
    await phone.page.getByLabel('Password').fill(PASSWORD);
    await phone.page.getByRole('button', { name: 'Sign in' }).click();
    await phone.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    // The whole menu is reachable without horizontal scrolling.
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectFitsPhone(phone.page, 'Settings');
    await e2e.screenshot(phone.page, 'phone-settings', { docs: true });
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
