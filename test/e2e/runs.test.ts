import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, PHONE, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';
import { expectFitsPhone } from './phone.ts';

// A cron that fails on its second step every second (six fields: the seconds are the LAST one),
// and a hook that an event from the Events page sets off, whose step is a procedure (a nested
// timeline).
const CONFIG = `
cron.Broken:
  cron_expression: '* * * * * *'
  actions:
    - action: utils.echo
      args: {step: one}
    - action: utils.sleep
      args: {seconds: soon}
procedure.announce(who):
  - action: utils.echo
    args: {rang: '\${who}'}
event.hook.OnDoorbell:
  if: {type: CustomEvent, subtype: doorbell}
  then:
    - action: procedure.announce
      args: {who: '\${args.who}'}
`;

const SLEEP_ERROR = 'utils.sleep: argument "seconds"';
const CRON_ERROR = 'cron.Broken actions step 2 (utils.sleep) failed';

/** Runs an action as the test itself (a bearer token: recorded with transport http). */
async function execute(
  url: string,
  token: string,
  action: string,
  args: Record<string, unknown> = {},
): Promise<void> {
  const res = await fetch(`${url}/execute`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ type: 'request', action, args }),
  });
  if (res.status !== 200) throw new Error(`${action}: HTTP ${res.status} ${await res.text()}`);
}

const rows = (page: Page) => page.locator('table.run-table tbody tr');
const runRow = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** The id in a run's address (`/runs/<id>`). */
function runIdOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\/runs\//, ''));
}

/**
 * Opens a run from the list by its name link. The pointer goes onto the list first, which holds
 * new runs back (they would push the rows down under the pointer while the cron fires).
 */
async function openRun(page: Page, text: string): Promise<string> {
  await page.locator('table.run-table').hover({ position: { x: 5, y: 5 } });
  const link = runRow(page, text).first().locator('a.run-name');
  const href = (await link.getAttribute('href'))!;
  await link.click();
  await page.waitForURL((u) => u.pathname === href);
  return runIdOf(`http://x${href}`);
}

describe('web UI: Runs on a fresh instance', () => {
  let e2e: E2e;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2e();
    await registerViaApi(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, '/runs');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('tells a newcomer what will appear and how to make a first run', async () => {
    await page.getByRole('heading', { name: 'No runs yet' }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(
      menu.getByRole('link', { name: 'Runs' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    await expect(page.title()).resolves.toBe('Runs · Pipit');
    await e2e.screenshot(page, 'runs-empty');

    // A filtered view with nothing in it says so, distinctly, and leads back.
    await page.goto('/runs?outcome=failed&transport=cron');
    await page.getByRole('heading', { name: 'No runs match these filters' }).waitFor();
    await expect(page.getByText('No runs yet').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByRole('heading', { name: 'No runs yet' }).waitFor();
    expect(new URL(page.url()).search).toBe('');

    // The empty state's link to Execute, a first run there, and it is on the Runs page.
    await page.getByRole('status').getByRole('link', { name: 'Execute' }).click();
    await page.waitForURL('**/execute');
    const action = page.getByRole('combobox', { name: 'Action' });
    await action.fill('utils.echo');
    await action.press('Escape');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('region', { name: 'Output' }).getByText('Succeeded').waitFor();
    await menu.getByRole('link', { name: 'Runs' }).click();
    const row = runRow(page, 'utils.echo');
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/utils\.echo.*http.*ada.*Succeeded/s);
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});

describe('web UI: Runs', () => {
  let e2e: E2e;
  let page: Page;
  let token: string;
  let failedId = '';
  let replayId = '';

  beforeAll(async () => {
    e2e = await startE2e(CONFIG);
    await registerViaApi(e2e.url);
    token = await apiToken(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, '/runs');
  }, 60_000);

  afterAll(async () => {
    await e2e?.close();
  });

  it('shows a failing cron without a reload, within a second of its end, with its error', async () => {
    const broken = runRow(page, 'Broken').first();
    await broken.waitFor();
    // Off the list, so that nothing holds new runs back.
    await page.mouse.move(5, 5);
    // The next run of the cron, as it lands in the page: how long after it started?
    const lateness = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const body = document.querySelector('table.run-table tbody')!;
          const ids = () =>
            Array.from(body.querySelectorAll('a.run-name')).map((a) => a.getAttribute('href'));
          const seen = new Set(ids());
          const observer = new MutationObserver(() => {
            for (const row of Array.from(body.querySelectorAll('tr'))) {
              const href = row.querySelector('a.run-name')?.getAttribute('href');
              if (!href || seen.has(href) || !row.textContent?.includes('Broken')) continue;
              observer.disconnect();
              const started = row.querySelector('time')!.dateTime;
              resolve(Date.now() - Date.parse(started));
              return;
            }
          });
          observer.observe(body, { childList: true, subtree: true });
          setTimeout(() => reject(new Error('no new run of Broken within 5 s')), 5000);
        }),
    );
    // It runs for a millisecond or two: arriving within a second of its start is within a second
    // of its end.
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(1000);

    const text = await broken.textContent();
    expect(text).toContain('cron');
    expect(text).toContain('Failed');
    expect(text).toContain(CRON_ERROR);
    await expect(broken.getAttribute('class')).resolves.toContain('run-failed');
    // Failed runs are marked in red.
    const color = await broken.locator('.run-error').evaluate((e) => getComputedStyle(e).color);
    expect(color).toBe('rgb(180, 35, 24)');
  }, 60_000);

  it("opens a run's page: the timeline with the failing step and its error", async () => {
    failedId = await openRun(page, 'Broken');
    await page.getByRole('heading', { name: 'Broken' }).waitFor();
    await expect(page.getByRole('status').filter({ hasText: 'Failed' }).count()).resolves.toBe(1);
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary.textContent()).resolves.toMatch(/Transport\s*Cron · cron Broken/);
    await expect(summary.textContent()).resolves.toContain('Pipit itself');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(CRON_ERROR);

    const steps = page.getByRole('list', { name: 'Steps' }).locator(':scope > li');
    await expect(steps.count()).resolves.toBe(2);
    const first = steps.nth(0);
    await expect(first.textContent()).resolves.toMatch(/utils\.echo.*OK/s);
    await expect(first.getByLabel('Arguments').textContent()).resolves.toContain('"step": "one"');
    await expect(first.getByLabel('Output').textContent()).resolves.toContain('"step": "one"');
    await expect(first.getAttribute('class')).resolves.not.toContain('step-failed');

    const failing = steps.nth(1);
    await expect(failing.getAttribute('class')).resolves.toContain('step-failed');
    await expect(failing.textContent()).resolves.toMatch(/utils\.sleep.*Failed step/s);
    await expect(failing.getByLabel('Arguments').textContent()).resolves.toContain(
      '"seconds": "soon"',
    );
    const error = failing.getByRole('note');
    await expect(error.isVisible()).resolves.toBe(true);
    await expect(error.textContent()).resolves.toContain(SLEEP_ERROR);
    await expect(error.textContent()).resolves.toContain('INVALID_ARGUMENTS');
    await e2e.screenshot(page, 'runs-detail', { docs: true });
  }, 60_000);

  it('"Run again" makes a new run, linked to the old one, that fails the same way', async () => {
    await page.getByRole('button', { name: 'Run again' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/runs/') && runIdOf(u.href) !== failedId);
    replayId = runIdOf(page.url());
    const note = page.locator('.run-replay-note');
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain(`Replay of ${failedId}`);
    // Run again as the signed-in user, through the same steps, to the same error.
    await expect(page.getByRole('region', { name: 'Summary' }).textContent()).resolves.toMatch(
      /Caller\s*ada via session/,
    );
    const failing = page.locator('.step-failed');
    await expect(failing.count()).resolves.toBe(1);
    await expect(failing.textContent()).resolves.toContain(SLEEP_ERROR);

    // The link goes back to the run it replays; the list marks the replay.
    await note.getByRole('link').click();
    await page.waitForURL((u) => runIdOf(u.href) === failedId);
    await page.getByRole('link', { name: '← All runs' }).click();
    await page.waitForURL((u) => u.pathname === '/runs');
    const marked = runRow(page, 'replay of');
    await marked.first().waitFor();
    await expect(marked.count()).resolves.toBe(1);
    await expect(marked.locator('a.run-name').getAttribute('href')).resolves.toBe(
      `/runs/${encodeURIComponent(replayId)}`,
    );
    await expect(marked.locator('.badge-replay').getAttribute('title')).resolves.toBe(
      `A replay of run ${failedId}`,
    );
  }, 60_000);

  it('says clearly when a run cannot be run again (its secrets are not kept)', async () => {
    await execute(e2e.url, token, 'utils.echo', { password: 'hunter2', note: 'with a secret' });
    await page.getByLabel('Action, name or text').fill('with a secret');
    await page.waitForURL((u) => u.searchParams.get('text') === 'with a secret');
    await runRow(page, 'utils.echo').waitFor();
    await openRun(page, 'utils.echo');
    const args = page.getByLabel('Arguments', { exact: true });
    await expect(args.textContent()).resolves.toContain('"password": "[redacted]"');
    await page.getByText('marks a secret').waitFor();
    await page.getByRole('button', { name: 'Run again' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'This run cannot be run again' });
    await refused.waitFor();
    await expect(refused.textContent()).resolves.toContain('had secret arguments (password)');
  }, 60_000);

  it('filters: failed only, transport, exact name; kept in the address', async () => {
    await execute(e2e.url, token, 'utils.echo', { hello: 'filters' });
    await page.goto('/runs');
    await runRow(page, 'utils.echo').first().waitFor();

    const failedOnly = page.getByLabel('Failed only');
    await failedOnly.check();
    await page.waitForURL((u) => u.searchParams.get('outcome') === 'failed');
    await expect.poll(() => runRow(page, 'utils.echo').count()).toBe(0);
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    const outcomes = await rows(page).locator('td[data-label="Outcome"]').allTextContents();
    expect(new Set(outcomes)).toEqual(new Set(['Failed']));
    await e2e.screenshot(page, 'runs-failed-only');

    await failedOnly.uncheck();
    await page.getByLabel('Transport').selectOption('cron');
    await page.waitForURL((u) => u.search === '?transport=cron');
    await expect.poll(() => runRow(page, 'utils.echo').count()).toBe(0);
    await expect.poll(() => runRow(page, 'Broken').count()).toBeGreaterThan(0);

    // An exact name: nothing from the crons is called utils.echo.
    await page.getByLabel('Exact name').check();
    await page.getByLabel('Name', { exact: true }).fill('utils.echo');
    await page.waitForURL((u) => u.searchParams.get('action') === 'utils.echo');
    await page.getByRole('heading', { name: 'No runs match these filters' }).waitFor();
    await page.getByLabel('Transport').selectOption('http');
    await page.waitForURL((u) => u.search === '?transport=http&action=utils.echo');
    // The two of this file so far (with a secret, and just now).
    await expect.poll(() => rows(page).count()).toBe(2);

    // A link opens a filtered view, its controls set.
    await page.goto('/runs?outcome=failed&transport=cron');
    await expect.poll(() => page.getByLabel('Failed only').isChecked()).toBe(true);
    await expect(page.getByLabel('Transport').inputValue()).resolves.toBe('cron');
    await runRow(page, 'Broken').first().waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.search === '');
    await expect(page.getByLabel('Failed only').isChecked()).resolves.toBe(false);
    await runRow(page, 'utils.echo').first().waitFor();

    // From a run, the runs of its cron: a filter shown as a chip, which removes it.
    await openRun(page, 'Broken');
    await page
      .getByRole('region', { name: 'Summary' })
      .getByRole('link', { name: 'Broken' })
      .click();
    await page.waitForURL((u) => u.search === '?cron=Broken');
    const chip = page.getByRole('button', { name: 'Cron: Broken' });
    await chip.waitFor();
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    const names = await rows(page).locator('a.run-name').allTextContents();
    expect(new Set(names)).toEqual(new Set(['Broken']));
    await chip.click();
    await page.waitForURL((u) => u.search === '');
    await runRow(page, 'utils.echo').first().waitFor();
  }, 60_000);

  it('loads older runs page by page', async () => {
    for (let i = 0; i < 60; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => execute(e2e.url, token, 'utils.echo', { n: i + j })),
      );
    await page.goto('/runs?action=utils.echo');
    await expect.poll(() => rows(page).count()).toBe(50);
    await page.getByRole('button', { name: 'Load older' }).click();
    // 60 here, the two of the tests before: every one, and no more button.
    await expect.poll(() => rows(page).count()).toBe(62);
    await page.getByRole('button', { name: 'Load older' }).waitFor({ state: 'detached' });
  }, 60_000);

  it('links an event on the Events page to the runs it caused', async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Events' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.getByLabel('Subtype').fill('doorbell');
    await page.getByLabel('Payload (JSON object)').fill('{"who": "grace"}');
    await page.getByRole('button', { name: 'Send event' }).click();
    const item = page
      .getByRole('list', { name: 'Events' })
      .getByRole('listitem')
      .filter({ hasText: 'doorbell' });
    await item.waitFor();
    // The cron's failures arrive every second on top of the feed: paused, it holds still.
    await page.getByRole('button', { name: 'Pause' }).click();
    await item.getByRole('link', { name: 'Runs' }).click();
    await page.waitForURL((u) => u.pathname === '/runs' && u.searchParams.has('event_id'));
    const eventId = new URL(page.url()).searchParams.get('event_id')!;
    await page.getByRole('button', { name: /Event:/ }).waitFor();

    // The hook's run and its steps (a procedure and the procedure's own), from this event only.
    await runRow(page, 'OnDoorbell').waitFor();
    await expect.poll(() => rows(page).count()).toBe(3);
    await expect(runRow(page, 'OnDoorbell').textContent()).resolves.toMatch(/hook.*Succeeded/s);
    await expect(runRow(page, 'procedure.announce').textContent()).resolves.toMatch(/step/);
    await expect(runRow(page, 'utils.echo').textContent()).resolves.toMatch(/step/);
    await openRun(page, 'OnDoorbell');
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary.textContent()).resolves.toContain(eventId);
    await expect(summary.textContent()).resolves.toContain('CustomEvent');
    // The timeline nests the procedure's step under it.
    const steps = page.getByRole('list', { name: 'Steps' }).locator(':scope > li');
    await expect(steps.count()).resolves.toBe(1);
    await expect(steps.locator('.step-name').first().textContent()).resolves.toBe(
      'procedure.announce',
    );
    const nested = steps.locator('ol.timeline > li');
    await expect(nested.count()).resolves.toBe(1);
    await expect(nested.locator('.step-name').textContent()).resolves.toBe('utils.echo');
    await expect(nested.getByLabel('Output', { exact: true }).textContent()).resolves.toContain(
      '"rang": "grace"',
    );
    await e2e.screenshot(page, 'runs-hook');

    // The list for the docs' screenshot, with runs of every kind near the top.
    await execute(e2e.url, token, 'utils.echo', { hello: 'world' });
    await page.getByRole('link', { name: '← All runs' }).click();
    await page.getByRole('button', { name: /Event:/ }).click();
    await page.waitForURL((u) => u.search === '');
    await page.mouse.move(5, 5);
    await runRow(page, 'OnDoorbell').waitFor();
    await e2e.screenshot(page, 'runs', { docs: true });
  }, 60_000);

  it('polls only while the list is on screen: not in a hidden tab, not on another page', async () => {
    let polls = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/execute') && req.postData()?.includes('"runs.list"')) polls++;
    });
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    const pollsDuring = async (ms: number) => {
      const before = polls;
      await page.waitForTimeout(ms);
      return polls - before;
    };

    await expect(pollsDuring(1600)).resolves.toBeGreaterThanOrEqual(2);
    await setVisibility('hidden');
    await page.waitForTimeout(300); // a request already under way may still answer
    await expect(pollsDuring(1600)).resolves.toBe(0);
    await setVisibility('visible');
    await expect(pollsDuring(1600)).resolves.toBeGreaterThanOrEqual(2);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.waitForTimeout(300);
    await expect(pollsDuring(1600)).resolves.toBe(0);
    await page.goBack();
    await runRow(page, 'Broken').first().waitFor();
  }, 60_000);

  describe('on a phone', () => {
    let phone: Page;

    beforeAll(async () => {
      ({ page: phone } = await e2e.newPage(PHONE));
      await signIn(phone, '/runs');
    }, 60_000);

    it('shows the list as cards that fit the screen', async () => {
      const broken = runRow(phone, 'Broken').first();
      await broken.waitFor();
      await expect(phone.locator('table.run-table thead').isVisible()).resolves.toBe(false);
      // A card: the name and the error across the whole width, the facts below.
      const name = await broken.locator('.run-what').boundingBox();
      const card = await broken.boundingBox();
      expect(name!.width).toBeGreaterThan(card!.width * 0.8);
      await expect(broken.locator('.run-error').isVisible()).resolves.toBe(true);
      await expectFitsPhone(phone, 'Runs list');
      await phone.getByLabel('Failed only').check();
      await phone.waitForURL((u) => u.searchParams.get('outcome') === 'failed');
      await runRow(phone, 'Broken').first().waitFor();
      await expectFitsPhone(phone, 'Runs list, failed only');
      await e2e.screenshot(phone, 'phone-runs', { docs: true });
    }, 60_000);

    it("shows a run's page readably, with Run again at hand", async () => {
      await phone.goto(`/runs/${encodeURIComponent(replayId)}`);
      await phone.getByRole('heading', { name: 'Broken' }).waitFor();
      await phone.locator('.step-failed').getByRole('note').waitFor();
      await expectFitsPhone(phone, 'Run detail');
      const again = await phone.getByRole('button', { name: 'Run again' }).boundingBox();
      expect(again!.x).toBeGreaterThanOrEqual(0);
      expect(again!.x + again!.width).toBeLessThanOrEqual(PHONE.width);
      // The error wraps rather than running off the screen.
      const error = await phone.locator('.step-failed').getByRole('note').boundingBox();
      expect(error!.x + error!.width).toBeLessThanOrEqual(PHONE.width);
      await e2e.screenshot(phone, 'phone-runs-detail');
    }, 60_000);
  });

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
