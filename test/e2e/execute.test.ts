import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

describe('web UI: Execute', () => {
  let e2e: E2e;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2e(
      'procedure.greet(name, times=2):\n  - action: utils.echo\n    args: {msg: "hi ${name}"}\n  - return: ${times}\n',
    );
    await registerViaApi(e2e.url);
    const { context, page: p } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.url });
    page = p;
    await signIn(page, '/execute');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  const combobox = () => page.getByRole('combobox', { name: 'Action' });
  const output = () => page.getByRole('region', { name: 'Output' });

  it('autocompletes actions as an ARIA combobox, by keyboard', async () => {
    const input = combobox();
    await input.fill('ut sle');
    await expect(input.getAttribute('aria-expanded')).resolves.toBe('true');
    const listId = await input.getAttribute('aria-controls');
    const listbox = page.locator(`#${listId}`);
    await expect(listbox.getAttribute('role')).resolves.toBe('listbox');
    const first = listbox.getByRole('option').first();
    await expect(first.textContent()).resolves.toContain('utils.sleep');
    // The first match is active; the input points at it.
    const activeId = await input.getAttribute('aria-activedescendant');
    await expect(first.getAttribute('id')).resolves.toBe(activeId);
    await expect(first.getAttribute('aria-selected')).resolves.toBe('true');
    await e2e.screenshot(page, 'execute-autocomplete', { docs: true });

    // Arrow keys move the active option (and wrap); Escape closes the list.
    await input.fill('variable');
    await input.press('ArrowDown');
    const options = listbox.getByRole('option');
    await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(
      await options.nth(1).getAttribute('id'),
    );
    await expect(options.nth(1).getAttribute('aria-selected')).resolves.toBe('true');
    await input.press('ArrowUp');
    await input.press('ArrowUp');
    await expect(input.getAttribute('aria-activedescendant')).resolves.toBe(
      await options.last().getAttribute('id'),
    );
    await input.press('Escape');
    await expect(input.getAttribute('aria-expanded')).resolves.toBe('false');

    await input.fill('ut sle');
    await input.press('Enter');
    await expect(input.inputValue()).resolves.toBe('utils.sleep');
    await expect(input.getAttribute('aria-expanded')).resolves.toBe('false');
  }, 60_000);

  it('shows parameter help generated from the JSON Schema and runs the action', async () => {
    const seconds = page.getByRole('textbox', { name: 'seconds' });
    await seconds.waitFor();
    const help = page.locator('.param').filter({ has: seconds });
    await expect(help.textContent()).resolves.toMatch(
      /number.*required.*how long to wait.*0 – 3600/s,
    );
    await seconds.fill('0.2');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByText('Succeeded').waitFor();
    await expect(output().getByLabel('Run output').textContent()).resolves.toContain(
      '"success": true',
    );
    const took = await output().locator('.run-duration').textContent();
    expect(took).toMatch(/\d+ ms|\d\.\d\d s/);
    await e2e.screenshot(page, 'execute-success', { docs: true });
  }, 60_000);

  it('shows errors for bad parameters, from the form and from the server', async () => {
    const seconds = page.getByRole('textbox', { name: 'seconds' });
    await seconds.fill('soon');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('seconds must be a number').waitFor();
    await expect(seconds.getAttribute('aria-invalid')).resolves.toBe('true');

    await seconds.fill('5000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByText('Failed').waitFor();
    await output().getByText('HTTP 400').waitFor();
    const alert = output().getByRole('alert');
    await expect(alert.textContent()).resolves.toContain('seconds');
    // An action's name leads the message: it is shown as written, not capitalised.
    await expect(alert.getByRole('listitem').textContent()).resolves.toMatch(/^utils\.sleep: /);
    await e2e.screenshot(page, 'execute-error', { docs: true });
  }, 60_000);

  it('runs with raw JSON arguments and copies the run as curl', async () => {
    await combobox().fill('var set');
    await combobox().press('Enter');
    await expect(combobox().inputValue()).resolves.toBe('variable.set');
    await page.getByRole('button', { name: 'Raw JSON' }).click();
    await page.getByLabel('Arguments (JSON object)').fill('{"colour": "blue"}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByText('Succeeded').waitFor();

    await page.getByRole('button', { name: 'Copy as curl' }).click();
    const copiedNote = page.getByText('✓ Copied');
    await copiedNote.waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`curl -X POST '${e2e.url}/execute'`);
    expect(copied).toContain('"action":"variable.set","args":{"colour":"blue"}');
    // The note does not outlive the moment.
    await copiedNote.waitFor({ state: 'detached' });

    // The form and the raw editor stay in step.
    await combobox().fill('variable.get');
    await combobox().press('Enter');
    await page.getByRole('button', { name: 'Form' }).click();
    await page.getByRole('textbox', { name: 'name' }).fill('colour');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(output().getByLabel('Run output').textContent()).resolves.toContain(
      '"colour": "blue"',
    );
  }, 60_000);

  it('keeps recent runs in the browser and re-runs them after a reload', async () => {
    await page.reload();
    const recent = page.getByRole('region', { name: 'Recent runs' });
    await recent.getByText('variable.get').waitFor();
    await expect(recent.getByRole('listitem').count()).resolves.toBe(4);
    await recent
      .getByRole('button', { name: /^Run utils\.sleep \{"seconds":0\.2\} again/ })
      .click();
    await output().getByText('Succeeded').waitFor();
    await expect(combobox().inputValue()).resolves.toBe('utils.sleep');
    await expect(page.getByRole('textbox', { name: 'seconds' }).inputValue()).resolves.toBe('0.2');
    await e2e.screenshot(page, 'execute-recent');
  }, 60_000);

  it('offers procedures too, with a form for their declared arguments', async () => {
    await combobox().fill('proc gre');
    const option = page.getByRole('option', { name: /procedure\.greet/ });
    await expect(option.textContent()).resolves.toContain('procedure');
    await combobox().press('Enter');
    await page.locator('.action-summary', { hasText: 'YAML procedure (2 steps)' }).waitFor();
    await page.getByRole('button', { name: 'Form' }).click();
    // A declared argument without a default is required (the server refuses a call without
    // it); one with a default shows that default.
    const nameField = page.getByRole('textbox', { name: 'name' });
    await expect(nameField.getAttribute('aria-required')).resolves.toBe('true');
    await expect(
      page.getByRole('textbox', { name: 'times' }).getAttribute('aria-required'),
    ).resolves.toBeNull();
    await expect(
      page.getByRole('textbox', { name: 'times' }).getAttribute('placeholder'),
    ).resolves.toBe('2');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('is required').waitFor();
    await expect(output().count()).resolves.toBe(0);
    await nameField.fill('Ada');
    await page.getByRole('textbox', { name: 'times' }).fill('3');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByText('procedure.greet').waitFor();
    await expect(output().getByLabel('Run output').textContent()).resolves.toBe('3');
  }, 60_000);

  it('clears the previous output when another action is chosen', async () => {
    await expect(output().getByText('procedure.greet').isVisible()).resolves.toBe(true);
    // The same action again keeps it: it is still this action's output.
    await combobox().fill('procedure.greet');
    await combobox().press('Enter');
    await expect(output().count()).resolves.toBe(1);
    // Starting to type another name is enough.
    await combobox().fill('utils.ec');
    await output().waitFor({ state: 'detached' });
    await combobox().fill('procedure.greet');
    await combobox().press('Enter');
    await page.getByRole('textbox', { name: 'name' }).fill('Bo');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByText('procedure.greet').waitFor();
    await combobox().fill('utils.echo');
    await combobox().press('Enter');
    await output().waitFor({ state: 'detached' });
    // A failed run's errors go too.
    await combobox().fill('utils.sleep');
    await combobox().press('Enter');
    await page.getByRole('textbox', { name: 'seconds' }).fill('5000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await output().getByRole('alert').waitFor();
    const recent = page.getByRole('region', { name: 'Recent runs' });
    await recent.getByRole('button', { name: /^Load variable\.get/ }).click();
    await expect(combobox().inputValue()).resolves.toBe('variable.get');
    await output().waitFor({ state: 'detached' });
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
  }, 60_000);

  it('is usable on a phone-sized screen', async () => {
    const phone = await e2e.newPage(PHONE);
    await signIn(phone.page, '/execute');
    const input = phone.page.getByRole('combobox', { name: 'Action' });
    await input.fill('echo');
    await input.press('Enter');
    await phone.page.getByLabel('Arguments (JSON object)').fill('{"hello": "phone"}');
    await phone.page.getByRole('button', { name: 'Run', exact: true }).click();
    await phone.page.getByRole('region', { name: 'Output' }).getByText('Succeeded').waitFor();
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await expectFitsPhone(phone.page, 'Execute');
    await phone.page.getByRole('button', { name: 'Copy as curl' }).scrollIntoViewIfNeeded();
    await e2e.screenshot(phone.page, 'phone-execute', { docs: true });
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
