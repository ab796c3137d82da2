import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSpotifyEmulator } from '../index.ts';
import type { EmulatorOptions, SpotifyEmulator } from '../index.ts';
import { OpenApiValidator } from './openapi-validator.ts';

/** Every scope, for tests that do not care about scopes. */
export const ALL = [
  'playlist-modify-private',
  'playlist-modify-public',
  'playlist-read-collaborative',
  'playlist-read-private',
  'user-follow-modify',
  'user-follow-read',
  'user-library-modify',
  'user-library-read',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'user-read-playback-position',
  'user-read-playback-state',
  'user-read-private',
  'user-read-recently-played',
];

/** One validator per test file (it caches compiled schemas). */
/**
 * The Spotify definition the emulator is held to: the copy kept in the repository (see
 * tools/spotify-emulator/openapi/SOURCE.md), or $SPOTIFY_OPENAPI.
 */
export const OPENAPI_PATH =
  process.env.SPOTIFY_OPENAPI ?? new URL('../openapi/openapi.yaml', import.meta.url).pathname;
export const validator = new OpenApiValidator(OPENAPI_PATH);

/** A response as tests see it. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON when the body is JSON, else undefined. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  json: any;
}

/** Options of `Harness.call`. */
export interface CallOptions {
  token?: string | null;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

/**
 * A started emulator plus a fetch wrapper that validates every `/v1` exchange against openapi.yaml.
 * @example
 * const h = await Harness.start();
 * const me = await h.call('GET', '/me');
 */
export class Harness {
  readonly emu: SpotifyEmulator;
  /** Token with every scope for the default user. */
  token: string;

  private constructor(emu: SpotifyEmulator) {
    this.emu = emu;
    // Long-lived so tests that jump the clock by months keep a working default token.
    this.token = emu.control.mintToken({ scopes: ALL, ttlSeconds: 10 * 365 * 86_400 }).accessToken;
  }

  static async start(options: EmulatorOptions = {}): Promise<Harness> {
    return new Harness(await startSpotifyEmulator(options));
  }

  get seed() {
    return this.emu.control.seed;
  }

  /** Mint a token for a user with scopes. */
  tokenFor(scopes: string[], userId?: string | null): string {
    return this.emu.control.mintToken({
      scopes,
      ttlSeconds: 10 * 365 * 86_400,
      ...(userId === undefined ? {} : { userId }),
    }).accessToken;
  }

  /** Call the Web API (`path` relative to `/v1`, or an absolute URL such as a `next` link). */
  async call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
    const url = new URL(path.startsWith('http') ? path : `${this.emu.apiUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? this.token : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    validator.validate({
      method,
      url,
      ...(options.body === undefined ? {} : { requestBody: options.body }),
      status: res.status,
      contentType,
      responseText: text,
    });
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: contentType.includes('json') && text ? JSON.parse(text) : undefined,
    };
  }

  /** POST a form to the Accounts token endpoint. */
  async tokenRequest(
    form: Record<string, string>,
    basic?: { id: string; secret: string },
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (basic)
      headers.authorization = `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString('base64')}`;
    const res = await fetch(`${this.emu.accountsUrl}/api/token`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(form),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: text ? JSON.parse(text) : undefined,
    };
  }

  /** Call the control API. */
  async control(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const init: RequestInit = { method };
    if (body !== undefined) init.body = JSON.stringify(body);
    if (body !== undefined) init.headers = { 'content-type': 'application/json' };
    const res = await fetch(`${this.emu.url}/_emulator${path}`, init);
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: text ? JSON.parse(text) : undefined,
    };
  }

  close(): Promise<void> {
    return this.emu.close();
  }
}

/**
 * Registers a test file's lifecycle: a harness started before all tests (`ready` receives it), the
 * emulator's world reset before each (unless `reset: false`), closed after all.
 *
 * @example
 * let h: Harness;
 * useHarness((harness) => (h = harness));
 */
export function useHarness(
  ready: (h: Harness) => unknown,
  opts: { options?: Parameters<typeof Harness.start>[0]; reset?: boolean } = {},
): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await Harness.start(opts.options);
    ready(harness);
  });
  if (opts.reset !== false) beforeEach(() => harness!.emu.control.reset());
  afterAll(() => harness?.close());
}
