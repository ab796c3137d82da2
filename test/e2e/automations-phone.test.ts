import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

// One of each kind, with long names and a long condition: the cards, the outline and the editor
// must wrap rather than widen a 390 px screen.
const CONFIG = `
event.hook.WhenTheFrontDoorOpensLateAtNight:
  if: {type: CustomEvent, subtype: front_door_opened_late_at_night, args: {level: {$gte: 3}}}
  then:
    - action: utils.echo
      args: {message: 'the front door opened late at night at level \${args.level}, turning lights on'}
event.hook.Greet:
  if: {type: WebhookEvent, hook: a_rather_long_web_hook_name_for_testing}
  then:
    - return: {greeted: true}
cron.Nightly:
  cron_expression: '0 23 * * *'
  actions:
    - action: utils.echo
procedure.morning(volume=50):
  - if \${volume > 50}:
      - for track in \${[1, 2]}:
          - action: utils.echo
            args: {track: '\${track}', volume: '\${volume}'}
`;

describe('web UI: Automations on a phone-sized screen', () => {
  let e2e: E2e;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2e(CONFIG);
    await registerViaApi(e2e.url);
    ({ page } = await e2e.newPage(PHONE));
    await signIn(page, '/automations');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('the list fits, with the current page in view in the menu', async () => {
    const list = page.getByRole('list', { name: 'Automations' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(4);
    await expectFitsPhone(page, 'Automations list');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    const bar = (await menu.boundingBox())!;
    const box = (await menu.getByRole('link', { name: 'Automations' }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(bar.x);
    expect(box.x + box.width).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
    await e2e.screenshot(page, 'automations-phone', { docs: true });
  }, 60_000);

  it('one automation fits, with its outline, YAML and run form', async () => {
    await page.goto('/automations/procedure.morning/');
    await page.getByRole('heading', { name: 'procedure.morning', level: 1 }).waitFor();
    await page.locator('.outline').first().waitFor();
    await expectFitsPhone(page, 'procedure.morning');
    await page.goto('/automations/event.hook.WhenTheFrontDoorOpensLateAtNight/');
    await page.getByRole('button', { name: 'Test', exact: true }).waitFor();
    await expectFitsPhone(page, 'a hook with a long name');
  }, 60_000);

  it('the editor and the templates fit', async () => {
    await page.goto('/automations/new');
    await page.getByRole('button', { name: 'Start from the web hook template' }).click();
    await page.getByRole('textbox', { name: 'Automation YAML' }).waitFor();
    await expectFitsPhone(page, 'the editor');
    await page.goto('/automations/event.hook.Greet/edit');
    await page.getByRole('textbox', { name: 'Automation YAML' }).waitFor();
    await expectFitsPhone(page, 'editing a web hook');
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
