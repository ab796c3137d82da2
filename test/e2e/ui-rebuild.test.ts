// The web UI rebuilt while the service runs (`npm ci`, `npm test` and `npm install ../pipit` all
// rebuild web/dist): a browser that loads the page afterwards gets the new build, not a white page.
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.ts';
import { serveSpaFallback, uiRoutes, WEB_DIST } from '../../src/http/routes/ui.ts';
import { tempDir } from '../helpers/service.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './harness.ts';

const tmp = tempDir('pipit-ui-rebuild-');
const dir = join(tmp.dir, 'dist');
const app = Fastify();
let browser: Browser;
let url: string;

/**
 * What a rebuild with changed sources leaves: every asset of the first page (those index.html
 * names) under a new hashed name, returned. Chunks loaded later (the Automations pages, the
 * editor) are left as they are: the first page does not fetch them.
 */
function rebuild(tag: string): string[] {
  const assets = join(dir, 'assets');
  let index = readFileSync(join(dir, 'index.html'), 'utf8');
  const renamed: string[] = [];
  for (const name of readdirSync(assets)) {
    if (!index.includes(`/assets/${name}`)) continue;
    const next = name.replace(/-([\w-]+)\./, `-${tag}$1.`);
    renameSync(join(assets, name), join(assets, next));
    index = index.replaceAll(`/assets/${name}`, `/assets/${next}`);
    renamed.push(next);
  }
  writeFileSync(join(dir, 'index.html'), index);
  return renamed;
}

beforeAll(async () => {
  cpSync(WEB_DIST, dir, { recursive: true });
  expect(await uiRoutes(app, createLogger({ level: 'silent' }), dir)).toBe(true);
  app.setNotFoundHandler((_req, reply) => serveSpaFallback(reply));
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
});
afterAll(async () => {
  await browser?.close();
  await app.close();
  tmp.cleanup();
});

describe('the web UI rebuilt under a running service', () => {
  it('renders the new build on the next load, and a page that says so while there is none', async () => {
    const page = await browser.newPage();
    const missing: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 404) missing.push(res.url());
    });
    await page.goto(url);
    // The app renders into #app (here "loading", then an error: there is no API behind it).
    await page.locator('#app > *').first().waitFor();

    const renamed = rebuild('r2');
    await page.reload();
    await page.locator('#app > *').first().waitFor();
    expect(missing).toEqual([]);
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => e.name),
    );
    for (const asset of renamed) expect(loaded.join('\n')).toContain(`/assets/${asset}`);

    // Mid-rebuild (vite empties the folder first): a page that says so and reloads itself.
    rmSync(dir, { recursive: true });
    const res = await page.goto(url);
    expect(res?.status()).toBe(503);
    await expect(page.locator('h1').textContent()).resolves.toMatch(/web UI is not there/);
    cpSync(WEB_DIST, dir, { recursive: true });
    // Its meta refresh brings the UI back without anyone touching the page.
    await page.locator('#app > *').first().waitFor({ timeout: 15_000 });
    await page.close();
  });
});
