import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startPipitProcess } from '../helpers/process.ts';
import type { PipitProcess } from '../helpers/process.ts';
import { tempDir } from '../helpers/service.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const WEB_INDEX = join(ROOT, 'web', 'dist', 'index.html');
/** Screenshots of every run (gitignored); with UPDATE_SCREENSHOTS=1 also the docs' copies. */
export const SCREENSHOT_DIR = join(ROOT, 'test-results', 'screenshots');
const DOCS_SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots');

export const CHROMIUM = '/usr/bin/chromium';
// No network beyond loopback here: these flags stop Chromium's background connections.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const USER = 'ada';
export const PASSWORD = 'correct horse battery';

export const DESKTOP = { width: 1280, height: 820 };
export const PHONE = { width: 390, height: 800 };

/** A real `pipit start` on a fresh workdir plus one headless Chromium, for one test file. */
export interface E2e {
  url: string;
  server: PipitProcess;
  /** The server's configuration file (a test may edit it and reload). */
  configPath: string;
  browser: Browser;
  /** A new browser context (own cookies and localStorage) with one page. */
  newPage(viewport?: {
    width: number;
    height: number;
  }): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * Saves a PNG of the page under test-results/screenshots; with `docs` also the docs' copy in
   * docs/screenshots when UPDATE_SCREENSHOTS=1.
   */
  screenshot(page: Page, name: string, opts?: { docs?: boolean }): Promise<void>;
  /** Console errors of every page except failed HTTP statuses (CSP violations, exceptions). */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * Starts the server and the browser. Fails early with the fix when the web UI or Chromium is
 * missing, rather than with a 404 page or a launch error.
 *
 * @example
 * const e2e = await startE2e(); const { page } = await e2e.newPage(); … await e2e.close();
 */
export async function startE2e(extraYaml = '', opts: { port?: number } = {}): Promise<E2e> {
  if (!existsSync(WEB_INDEX))
    throw new Error('the web UI is not built: run "npm run build:web" first');
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
  const tmp = tempDir('pipit-e2e-');
  const configPath = join(tmp.dir, 'config.yaml');
  writeFileSync(
    configPath,
    `device_id: e2e\nworkdir: ./data\nbackend.http:\n  port: ${opts.port ?? 0}\n  bind_address: 127.0.0.1\n${extraYaml}`,
  );
  let server: PipitProcess | undefined;
  let browser: Browser | undefined;
  try {
    [server, browser] = await Promise.all([
      startPipitProcess(configPath),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    ]);
  } catch (err) {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
    throw err;
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const update = process.env.UPDATE_SCREENSHOTS === '1';
  if (update) mkdirSync(DOCS_SCREENSHOT_DIR, { recursive: true });
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const b = browser;
  const s = server;
  return {
    url: s.url,
    server: s,
    configPath,
    browser: b,
    async newPage(viewport = DESKTOP) {
      const context = await b.newContext({ viewport, baseURL: s.url, deviceScaleFactor: 1 });
      contexts.push(context);
      // Fail a missing element within seconds, well inside the per-test timeout.
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      // 4xx answers are expected in these tests and Chromium logs each one; anything else (a CSP
      // refusal, an uncaught exception) is a bug in the UI.
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !/Failed to load resource/.test(msg.text()))
          pageErrors.push(msg.text());
      });
      page.on('pageerror', (err) => pageErrors.push(err.message));
      return { context, page };
    },
    pageErrors,
    async screenshot(page, name, opts) {
      const buffer = await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
      if (update && opts?.docs) writeFileSync(join(DOCS_SCREENSHOT_DIR, `${name}.png`), buffer);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await b.close().catch(() => undefined);
      await s.stop();
      tmp.cleanup();
    },
  };
}

/** Registers the first user through the UI's API (for files that do not test registration). */
export async function registerViaApi(url: string): Promise<void> {
  const res = await fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD, confirm_password: PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
}

/** Signs in through the login form and waits for the menu. */
export async function signIn(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('User name').fill(USER);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
}

/** A bearer token for API calls made by the test itself. */
export async function apiToken(url: string): Promise<string> {
  const res = await fetch(`${url}/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: USER, password: PASSWORD }),
  });
  const body = (await res.json()) as { token: string };
  return body.token;
}
