import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { PIPIT_REDIRECT_URI } from '../../../tools/spotify-emulator/config.ts';
import { startSpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { EmulatorOptions, SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import { makeApp } from '../../helpers/service.ts';
import type { TestApp } from '../../helpers/service.ts';
import type { SpotifyState } from '../../../src/plugins/music/spotify/state.ts';
import type { Timers } from '../../../src/plugins/music/spotify/timers.ts';

/** The redirect URI the tests configure: Pipit's default, which the emulator's CLI accepts too. */
export const REDIRECT = PIPIT_REDIRECT_URI;

/** An emulator whose default app accepts the plugin's callback path (on any loopback port). */
export function startEmu(options: EmulatorOptions = {}): Promise<SpotifyEmulator> {
  return startSpotifyEmulator({
    ...options,
    app: { redirectUris: [PIPIT_REDIRECT_URI], ...options.app },
  });
}

/** Fast settings so retries and timeouts do not slow the suite. */
export const FAST = {
  request_timeout_seconds: 2,
  max_retries: 2,
  backoff_seconds: 0.001,
  max_backoff_seconds: 0.005,
  wake_retry_seconds: 0,
};

/** A Pipit test app with a `music.spotify` section pointing at the emulator. */
export async function spotifyApp(
  emu: SpotifyEmulator,
  extra: Record<string, unknown> = {},
  opts: { dir?: string; secret?: boolean; clientId?: string } = {},
): Promise<TestApp> {
  const section: Record<string, unknown> = {
    client_id: opts.clientId ?? emu.clientId,
    ...(opts.secret === false || !emu.clientSecret ? {} : { client_secret: emu.clientSecret }),
    redirect_uri: REDIRECT,
    api_url: emu.apiUrl,
    auth_url: emu.accountsUrl,
    ...FAST,
    ...extra,
  };
  const yaml = `music.spotify:\n${Object.entries(section)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;
  return makeApp(yaml, opts.dir ? { dir: opts.dir } : {});
}

/** The plugin's state inside a test app. */
export function pluginState(t: TestApp): SpotifyState {
  return t.service.registry.plugins.get('music.spotify')!.state as SpotifyState;
}

/** Recording timers: waits resolve at once (and are recorded), `now` can be moved forward. */
export function fakeTimers(): Timers & { waits: number[]; advance(ms: number): void } {
  let offset = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now() + offset,
    sleep: async (ms) => {
      waits.push(ms);
    },
    advance: (ms) => {
      offset += ms;
    },
  };
}

/**
 * Runs the browser part of the authorization: the plugin's address → the emulator's /authorize
 * (auto-consent) → its redirect → our callback route. Returns the callback's answer.
 */
export async function authorize(
  t: TestApp,
  opts: { user?: string } = {},
): Promise<{ status: number; body: string }> {
  const { url } = pluginState(t).auth.authorizeUrl();
  const target = new URL(url);
  if (opts.user) target.searchParams.set('emulator_user', opts.user);
  const res = await fetch(target, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expect(location.pathname).toBe('/spotify/auth_callback');
  const cb = await t.app.inject({ method: 'GET', url: `${location.pathname}${location.search}` });
  return { status: cb.statusCode, body: cb.body };
}

/** Runs a music.spotify action through execute(); returns output and errors. */
export async function run(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<{ output: unknown; errors: string[] }> {
  const { message } = await t.service.execute(
    { type: 'request', action: `music.spotify.${action}`, args },
    { transport: 'library' },
  );
  return { output: message.response.output, errors: message.response.errors };
}

// Outputs are checked field by field in the tests; a loose type keeps them readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** Runs an action that must succeed and returns its output. */
export async function ok(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<Loose> {
  const { output, errors } = await run(t, action, args);
  expect(errors).toEqual([]);
  return output;
}

/** Runs an action that must fail and returns its error text. */
export async function fails(
  t: TestApp,
  action: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const { errors } = await run(t, action, args);
  expect(errors.length).toBeGreaterThan(0);
  return errors.join('\n');
}

/** Starts playback of an album on the speaker through the emulator's control surface. */
export async function startPlaying(t: TestApp, emu: SpotifyEmulator): Promise<void> {
  await ok(t, 'play', {
    resource: `spotify:album:${emu.control.seed.fixedAlbumId}`,
    device: emu.control.seed.deviceIds.speaker,
  });
}

/** The emulator and a Pipit app authorized against it, for one test file. */
export interface SpotifyFixture {
  emu: SpotifyEmulator;
  t: TestApp;
}

/**
 * Registers a test file's lifecycle: before all, an emulator and a Pipit app authorized against it
 * (`ready` receives them); before each, a fresh emulator world and an empty device cache (then
 * `each`); after all, both closed.
 *
 * @example
 * let emu: SpotifyEmulator;
 * let t: TestApp;
 * useAuthorizedSpotify((f) => ({ emu, t } = f));
 */
export function useAuthorizedSpotify(
  ready: (f: SpotifyFixture) => unknown,
  opts: {
    emulator?: EmulatorOptions;
    config?: Record<string, unknown>;
    each?: (f: SpotifyFixture) => void;
  } = {},
): void {
  let fixture: SpotifyFixture | undefined;
  beforeAll(async () => {
    const emu = await startEmu(opts.emulator);
    const t = await spotifyApp(emu, opts.config);
    expect((await authorize(t)).status).toBe(200);
    fixture = { emu, t };
    await ready(fixture);
  });
  afterAll(async () => {
    await fixture?.t.close();
    await fixture?.emu.close();
  });
  beforeEach(() => {
    fixture!.emu.control.reset();
    pluginState(fixture!.t).devices = undefined;
    opts.each?.(fixture!);
  });
}
