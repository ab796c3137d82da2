import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { apiToken, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';

// A hook with comments (they must survive an edit from the page), a per-second cron, a web hook
// and a procedure with a declared argument, all in the configuration file.
const CONFIG = `
# The doorbell: say who rang.
event.hook.OnDoor:   # defined in the config file
  if: {type: CustomEvent, subtype: door}
  then:
    # keep this comment
    - action: utils.echo
      args: {who: '\${args.who}'}
cron.Tick:
  cron_expression: '* * * * * *'
  actions:
    - action: utils.echo
      args: {tick: true}
# Runs every second throughout: that time has passed is seen by its runs, not by sleeping.
cron.Witness:
  cron_expression: '* * * * * *'
  actions:
    - action: utils.echo
      args: {witness: true}
event.hook.Greet:
  if: {type: WebhookEvent, hook: greet}
  then:
    - return: {greeted: true}
procedure.double(n):
  - action: utils.echo
    args: {n: '\${n * 2}'}
`;

const EDITOR = 'Automation YAML';

interface Output {
  response?: { output?: unknown; errors?: string[] };
}

/** Calls an action as the test itself. */
async function call<T>(url: string, token: string, action: string, args = {}): Promise<T> {
  const res = await fetch(`${url}/execute`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ type: 'request', action, args }),
  });
  const body = (await res.json()) as Output;
  if (res.status !== 200 || body.response?.errors?.length)
    throw new Error(`${action}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.response?.output as T;
}

async function cronRuns(url: string, token: string): Promise<number> {
  const out = await call<{ runs: unknown[] }>(url, token, 'runs.list', {
    cron: 'Tick',
    limit: 200,
  });
  return out.runs.length;
}

/** Resolves once cron.Witness has started `n` runs from now: that many seconds have passed. */
async function witnessSeconds(url: string, token: string, n: number): Promise<void> {
  const since = new Date().toISOString();
  await expect
    .poll(
      async () =>
        (
          await call<{ runs: unknown[] }>(url, token, 'runs.list', {
            cron: 'Witness',
            since,
            limit: 10,
          })
        ).runs.length,
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(n);
}

const editor = (page: Page): Locator => page.getByRole('textbox', { name: EDITOR });

/** The editor's text, line by line as CodeMirror shows it. */
async function editorText(page: Page): Promise<string> {
  return editor(page).evaluate((el) =>
    Array.from(el.querySelectorAll('.cm-line'))
      .map((l) => l.textContent)
      .join('\n'),
  );
}

/**
 * Replaces the editor's text as a paste does (select all, then a paste event that CodeMirror
 * handles itself). Playwright's fill() would go through the browser's editing command, which
 * writes style attributes the page's CSP refuses: nothing a user does.
 */
async function setEditorText(page: Page, text: string): Promise<void> {
  await editor(page).press('Control+a');
  await editor(page).evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    el.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
  await expect.poll(() => editorText(page)).toBe(text);
}

describe('web UI: Automations', () => {
  let e2e: E2e;
  let page: Page;
  let token: string;
  let restarted: PipitProcess | undefined;

  beforeAll(async () => {
    e2e = await startE2e(CONFIG);
    await registerViaApi(e2e.url);
    token = await apiToken(e2e.url);
    ({ page } = await e2e.newPage());
    await signIn(page, '/automations');
  }, 60_000);

  afterAll(async () => {
    await restarted?.stop();
    await e2e?.close();
  });

  it('downloads the Automations pages and the editor only when they are opened', async () => {
    const { page: other } = await e2e.newPage();
    const scripts: string[] = [];
    other.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await signIn(other, '/execute');
    await other.getByRole('heading', { name: 'Execute', level: 1 }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => /automations-page|yaml-editor/.test(s))).toEqual([]);
    await other
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Automations' })
      .click();
    await other.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    expect(scripts.some((s) => s.includes('automations-page'))).toBe(true);
    expect(scripts.filter((s) => s.includes('yaml-editor'))).toEqual([]);
    await other.getByRole('link', { name: 'New automation' }).first().click();
    await other.getByRole('button', { name: 'Start from the cron template' }).click();
    await other.getByRole('textbox', { name: EDITOR }).waitFor();
    expect(scripts.some((s) => s.includes('yaml-editor'))).toBe(true);
    await other.context().close();
  }, 60_000);

  it('lists every automation with where it is defined, its last run, URL and condition', async () => {
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(
      menu.getByRole('link', { name: 'Automations' }).getAttribute('aria-current'),
    ).resolves.toBe('page');
    const list = page.getByRole('list', { name: 'Automations' });
    const card = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await card('event.hook.OnDoor').waitFor();
    await expect(card('event.hook.OnDoor').innerText()).resolves.toMatch(/Event hook/);
    await expect(card('event.hook.OnDoor').innerText()).resolves.toMatch(/config\.yaml:\d+/);
    await expect(card('event.hook.OnDoor').innerText()).resolves.toMatch(/door/);
    await expect(card('event.hook.Greet').innerText()).resolves.toMatch(/Web hook/);
    await expect(card('event.hook.Greet').innerText()).resolves.toContain(`${e2e.url}/hook/greet`);
    await card('event.hook.Greet').getByRole('button', { name: 'Copy URL' }).waitFor();
    await expect(card('procedure.double').innerText()).resolves.toMatch(/Procedure/);
    // The per-second cron has run by now: its last run links to that run, its next run shows.
    const tick = card('cron.Tick');
    const lastRun = tick.locator('a.automation-run');
    await lastRun.waitFor({ timeout: 15_000 });
    expect(await lastRun.getAttribute('href')).toMatch(/^\/runs\/.+/);
    await expect(tick.innerText()).resolves.toMatch(/Next run/);
    await expect(
      tick.getByRole('switch', { name: 'Enabled: cron.Tick' }).isChecked(),
    ).resolves.toBe(true);

    // Filters: kind, and a search.
    await page.getByLabel('Kind').selectOption('cron');
    await page.waitForURL((u) => u.search === '?kind=cron');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Search').fill('double');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(5);
    await e2e.screenshot(page, 'automations-list', { docs: true });
  }, 60_000);

  it('creates a procedure from a template, completes names, saves it and runs it', async () => {
    await page.getByRole('link', { name: 'New automation' }).first().click();
    await page.getByRole('button', { name: 'Start from the procedure template' }).click();
    await page.waitForURL((u) => u.search === '?template=procedure');
    await expect.poll(() => editorText(page)).toContain('procedure.greet(who, greeting=Hello):');

    // Completion: an action name after `action:`, then that action's arguments under `args:`.
    await setEditorText(page, 'procedure.nap(s):\n  - action: utils.sle');
    await editor(page).press('Control+End');
    await editor(page).pressSequentially('e');
    await page.getByRole('option', { name: /utils\.sleep/ }).click();
    await expect.poll(() => editorText(page)).toContain('- action: utils.sleep');
    await setEditorText(page, 'procedure.nap(s):\n  - action: utils.sleep\n    args:\n      se');
    await editor(page).press('Control+End');
    await editor(page).pressSequentially('c');
    await page.getByRole('option', { name: /seconds/ }).waitFor();
    await editor(page).press('Escape');

    // Back to the template, saved as it is.
    await page.getByRole('link', { name: 'Other templates' }).click();
    await page.getByRole('button', { name: 'Start from the procedure template' }).click();
    await expect.poll(() => editorText(page)).toContain('procedure.greet(who, greeting=Hello):');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/automations/procedure.greet/');
    await page.getByRole('heading', { name: 'procedure.greet', level: 1 }).waitFor();
    // The steps as an outline, beside the YAML.
    const outline = page.locator('.outline').first();
    await expect(outline.innerText()).resolves.toMatch(/utils\.echo/);
    await expect(outline.innerText()).resolves.toMatch(/if/);

    // Run now, with the declared argument from the form.
    await page.getByLabel('who', { exact: true }).fill('Ada');
    await page.getByRole('button', { name: 'Run now' }).click();
    const result = page.locator('.automation-test-result');
    await result.getByRole('link', { name: 'See the run' }).waitFor();
    await expect(result.innerText()).resolves.toContain('Welcome back');
    // The run is in its recent runs, linking to the Runs page.
    await page.locator('.automation-runs a.automation-run').first().waitFor();
    await result.getByRole('link', { name: 'See the run' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/runs/'));
    await page.getByRole('heading', { name: 'procedure.greet' }).first().waitFor();
  }, 60_000);

  it('shows a misspelt action at its line and refuses to save', async () => {
    await page.goto('/automations/new?template=cron');
    await expect.poll(() => editorText(page)).toContain('cron.EveryMorning:');
    const text = (await editorText(page)).replace('utils.echo', 'utils.ecko');
    await setEditorText(page, text);
    // Checked as it is typed: the problem is marked at its line before Save is pressed.
    const typed = page.locator('.cm-line').filter({ has: page.locator('.cm-lintRange-error') });
    await typed.first().waitFor();
    await expect(typed.first().innerText()).resolves.toContain('utils.ecko');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.locator('.alert-error').filter({ hasText: 'Not saved' });
    await alert.waitFor();
    const line = text.split('\n').findIndex((l) => l.includes('utils.ecko')) + 1;
    await expect(alert.innerText()).resolves.toMatch(new RegExp(`Line ${line}: .*ecko`));
    // The diagnostic is on that line of the editor.
    const marked = page.locator('.cm-line').filter({ has: page.locator('.cm-lintRange-error') });
    await expect(marked.innerText()).resolves.toContain('utils.ecko');
    await e2e.screenshot(page, 'automations-editor-error', { docs: true });
    expect(new URL(page.url()).pathname).toBe('/automations/new');
    const list = await call<{ automations: { name: string }[] }>(
      e2e.url,
      token,
      'automations.list',
    );
    expect(list.automations.map((a) => a.name)).not.toContain('cron.EveryMorning');
  }, 60_000);

  it('edits a hook of the config file and keeps its comments', async () => {
    await page.goto('/automations/event.hook.OnDoor/edit');
    await expect.poll(() => editorText(page)).toContain('# keep this comment');
    const text = await editorText(page);
    await setEditorText(page, text.replace("{who: '${args.who}'}", "{visitor: '${args.who}'}"));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/automations/event.hook.OnDoor/');
    const file = readFileSync(e2e.configPath, 'utf8');
    expect(file).toContain("{visitor: '${args.who}'}");
    expect(file).toContain('# keep this comment');
    expect(file).toContain('# defined in the config file');
    expect(file).toContain('# The doorbell: say who rang.');
    // The others are untouched.
    expect(file).toContain("cron_expression: '* * * * * *'");
  }, 60_000);

  it('tests a web hook and dry-runs a procedure', async () => {
    await page.goto('/automations/event.hook.Greet/');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const result = page.locator('.automation-test-result');
    await result.getByText('Condition matched').waitFor();
    const runLink = result.getByRole('link', { name: 'See the run' });
    expect(await runLink.getAttribute('href')).toMatch(/^\/runs\/.+/);

    await page.goto('/automations/procedure.double/');
    await page.getByLabel('n', { exact: true }).fill('21');
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('heading', { name: 'Steps that would run' }).waitFor();
    const steps = page.locator('.dry-run-steps');
    await expect(steps.innerText()).resolves.toContain('utils.echo');
    await expect(steps.innerText()).resolves.toContain('42');
    // A dry run records no run.
    const runs = await call<{ runs: unknown[] }>(e2e.url, token, 'runs.list', {
      action: 'procedure.double',
    });
    expect(runs.runs).toHaveLength(0);
  }, 60_000);

  it("shows a script's automation with its source, read-only", async () => {
    const scripts = join(dirname(e2e.configPath), 'scripts');
    mkdirSync(scripts, { recursive: true });
    const file = join(scripts, 'ping.ts');
    const source =
      "import { hook } from 'pipit';\n// Answers a ping.\nhook('CustomEvent', { subtype: 'ping' }, () => ({ pong: true }), { name: 'Ping' });\n";
    writeFileSync(file, source);
    const res = await fetch(`${e2e.url}/reload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);

    await page.goto('/automations?search=Ping');
    const card = page.getByRole('listitem').filter({ hasText: 'event.hook.Ping' });
    await expect(card.innerText()).resolves.toMatch(/ping\.ts/);
    await card.getByRole('link', { name: 'event.hook.Ping' }).click();
    await page.getByRole('heading', { name: 'Script', level: 2 }).waitFor();
    await page.getByText(file, { exact: true }).waitFor();
    await expect(page.locator('pre.automation-code').textContent()).resolves.toBe(source);
    // Read-only: no editor, no delete.
    await page.getByText('Defined by a script: change it in its file.').waitFor();
    await expect(page.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete…' }).count()).resolves.toBe(0);
  }, 60_000);

  it('refuses a save over a change made in another tab, and loads the latest', async () => {
    const other = (await e2e.newPage()).page;
    await signIn(other, '/automations/procedure.double/edit');
    await page.goto('/automations/procedure.double/edit');
    await expect.poll(() => editorText(page)).toContain('procedure.double(n):');
    await expect.poll(() => editorText(other)).toContain('procedure.double(n):');

    const first = (await editorText(other)).replace('n * 2', 'n * 3');
    await setEditorText(other, first);
    await other.getByRole('button', { name: 'Save' }).click();
    await other.waitForURL((u) => u.pathname === '/automations/procedure.double/');

    await setEditorText(page, (await editorText(page)).replace('n * 2', 'n * 4'));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('changed since you opened it').waitFor();
    expect(readFileSync(e2e.configPath, 'utf8')).toContain('n * 3');
    await page.getByRole('button', { name: 'Load the latest version' }).click();
    await expect.poll(() => editorText(page)).toContain('n * 3');
    await expect(page.getByText('changed since you opened it').count()).resolves.toBe(0);
  }, 60_000);

  it('deletes an automation after asking', async () => {
    await page.goto('/automations/procedure.greet/');
    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete procedure.greet?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((u) => u.pathname === '/automations');
    const list = page.getByRole('list', { name: 'Automations' });
    await list.getByRole('listitem').first().waitFor();
    await expect(list.innerText()).resolves.not.toContain('procedure.greet');
  }, 60_000);

  it('disables a per-second cron: it stops, and stays stopped after a restart', async () => {
    await page.goto('/automations?kind=cron');
    const toggle = page.getByRole('switch', { name: 'Enabled: cron.Tick' });
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await page.getByText('Disabled', { exact: true }).first().waitFor();
    // Once the switch is off no new run starts (one already going may still finish). That nothing
    // happens is seen over a few seconds, counted by the runs of cron.Witness.
    await witnessSeconds(e2e.url, token, 1);
    const before = await cronRuns(e2e.url, token);
    await witnessSeconds(e2e.url, token, 2);
    expect(await cronRuns(e2e.url, token)).toBe(before);

    await e2e.server.stop();
    restarted = await startPipitProcess(e2e.configPath);
    const again = await apiToken(restarted.url);
    const list = await call<{ automations: { name: string; enabled: boolean }[] }>(
      restarted.url,
      again,
      'automations.list',
      { kind: 'cron' },
    );
    expect(list.automations.find((a) => a.name === 'cron.Tick')?.enabled).toBe(false);
    const afterRestart = await cronRuns(restarted.url, again);
    await witnessSeconds(restarted.url, again, 2);
    expect(await cronRuns(restarted.url, again)).toBe(afterRestart);
    expect(afterRestart).toBe(before);

    // The page of the restarted service shows it switched off.
    const { page: fresh } = await e2e.newPage();
    await signIn(fresh, `${restarted.url}/automations?kind=cron`);
    await expect(
      fresh.getByRole('switch', { name: 'Enabled: cron.Tick' }).isChecked(),
    ).resolves.toBe(false);
  }, 90_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
