import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiToken, registerViaApi, signIn, startE2e } from './harness.ts';
import type { E2e } from './harness.ts';

interface Frame {
  type: string;
  args?: { type: string; subtype?: string; args?: Record<string, unknown> };
}

/** A second client on /ws/events (Node's WebSocket, authenticated by a token query parameter). */
async function openClient(url: string, token: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  const ws = new WebSocket(
    `${url.replace(/^http/, 'ws')}/ws/events?token=${encodeURIComponent(token)}`,
  );
  const frames: Frame[] = [];
  ws.addEventListener('message', (m) => frames.push(JSON.parse(String(m.data)) as Frame));
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('cannot open /ws/events')), { once: true });
  });
  return { ws, frames };
}

function publish(ws: WebSocket, subtype: string, args: Record<string, unknown>): void {
  ws.send(JSON.stringify({ type: 'event', args: { type: 'CustomEvent', subtype, args } }));
}

describe('web UI: Events', () => {
  let e2e: E2e;
  let page: Page;
  let client: { ws: WebSocket; frames: Frame[] };

  beforeAll(async () => {
    e2e = await startE2e();
    await registerViaApi(e2e.url);
    client = await openClient(e2e.url, await apiToken(e2e.url));
    ({ page } = await e2e.newPage());
    await signIn(page, '/events');
  }, 60_000);

  afterAll(async () => {
    client?.ws?.close();
    await e2e?.close();
  });

  const feed = () => page.getByRole('list', { name: 'Events' });

  it('connects live and shows a custom event sent from the form', async () => {
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    await page.getByLabel('Subtype').fill('door_open');
    await page.getByLabel('Payload (JSON object)').fill('{"who": "e2e", "floor": 2}');
    await page.getByRole('button', { name: 'Send event' }).click();
    const item = feed().getByRole('listitem').filter({ hasText: 'door_open' });
    await item.waitFor();
    await expect(item.textContent()).resolves.toMatch(/CustomEvent.*door_open.*"who": "e2e"/s);
    // "Sent" is said, then goes by itself.
    const sent = page.getByRole('status').filter({ hasText: 'Sent “door_open”.' });
    await sent.waitFor();
    await sent.waitFor({ state: 'detached' });
    // Published events go to every client, the sender's included.
    await expect.poll(() => client.frames.some((f) => f.args?.subtype === 'door_open')).toBe(true);
  }, 60_000);

  it('shows events published by another client', async () => {
    publish(client.ws, 'from_script', { n: 1 });
    await feed().getByRole('listitem').filter({ hasText: 'from_script' }).waitFor();
    await e2e.screenshot(page, 'events', { docs: true });
  }, 60_000);

  it('filters by kind, pauses (holding events back) and clears', async () => {
    const filter = page.getByLabel('Filter by kind');
    await filter.selectOption({ label: 'CustomEvent' });
    await page.getByText('2 events shown of kind CustomEvent').waitFor();
    await filter.selectOption({ label: 'All kinds' });

    const pause = page.getByRole('button', { name: 'Pause' });
    await pause.click();
    publish(client.ws, 'while_paused', {});
    await page.getByRole('button', { name: 'Resume (1 new)' }).waitFor();
    await expect(feed().getByText('while_paused').count()).resolves.toBe(0);
    await page.getByRole('button', { name: /^Resume/ }).click();
    await feed().getByText('while_paused').waitFor();

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('No events yet.').waitFor();
  }, 60_000);

  it('checks the payload before sending', async () => {
    await page.getByLabel('Subtype').fill('x');
    await page.getByLabel('Payload (JSON object)').fill('[1, 2]');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByText('The payload must be a JSON object.').waitFor();
  }, 60_000);

  it('shows the newest earlier events on arrival, as compact rows that expand', async () => {
    const body = { user: 'e2e', text: 'x'.repeat(2_000), nested: { deep: [1, 2, 3] } };
    publish(client.ws, 'before_open', body);
    await expect
      .poll(() => client.frames.some((f) => f.args?.subtype === 'before_open'))
      .toBe(true);
    const { page: late } = await e2e.newPage();
    await signIn(late, '/events');
    const lateFeed = late.getByRole('list', { name: 'Events' });
    const row = lateFeed.getByRole('listitem').filter({ hasText: 'before_open' });
    await row.waitFor();
    // Earlier events came too, in order, and none twice.
    await lateFeed.getByRole('listitem').filter({ hasText: 'door_open' }).waitFor();
    await expect(
      lateFeed.getByRole('listitem').filter({ hasText: 'before_open' }).count(),
    ).resolves.toBe(1);
    // Collapsed: one line, the payload's JSON hidden until the row is opened.
    const payload = row.locator('pre');
    await expect(payload.isVisible()).resolves.toBe(false);
    const collapsed = (await row.boundingBox())!.height;
    await row.locator('summary').click();
    await payload.waitFor({ state: 'visible' });
    // A 2,000-character body is a line or two until asked for.
    expect(collapsed).toBeLessThan(90);
    expect((await row.boundingBox())!.height).toBeGreaterThan(collapsed + 100);
    await expect(payload.textContent()).resolves.toContain('"deep": [');
    await e2e.screenshot(late, 'events-history');
  }, 60_000);

  it('logged no console errors (CSP violations, exceptions)', () => {
    expect(e2e.pageErrors).toEqual([]);
  });
});
