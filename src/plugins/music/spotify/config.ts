import { z } from 'zod';

/** Where Spotify's callback lands by default on the default port (8008), on the loopback literal. */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:8008/spotify/auth_callback';

/**
 * The default redirect URI for a service on `port`: Spotify accepts plain http only on the
 * loopback IP literals (`127.0.0.1`, `[::1]`), never on `localhost` or another name.
 *
 * @example
 * loopbackRedirectUri(8123); // 'http://127.0.0.1:8123/spotify/auth_callback'
 * loopbackRedirectUri(8123, '[::1]'); // 'http://[::1]:8123/spotify/auth_callback'
 */
export function loopbackRedirectUri(
  port: number,
  host: '127.0.0.1' | '[::1]' = '127.0.0.1',
): string {
  return `http://${host}:${port}/spotify/auth_callback`;
}

/**
 * What a user without a `music.spotify:` section is told, with everything needed to add one: the
 * package ships no plugin documentation besides its README, so the steps are in the message.
 *
 * @example
 * throw new PipitError('CONFIG_INVALID', SPOTIFY_NOT_CONFIGURED);
 */
export const SPOTIFY_NOT_CONFIGURED =
  'the music.spotify plugin is not configured: create an app at https://developer.spotify.com/dashboard with the redirect URI http://127.0.0.1:<port>/spotify/auth_callback (<port>: Pipit\'s, 8008 by default), then add to the configuration file a "music.spotify:" section with "client_id: <the app\'s client ID>" (README.md, "The Spotify plugin")';

/**
 * The `music.spotify:` (alias `music.streaming:`) configuration section.
 *
 * @example
 * SpotifyConfig.parse({ client_id: 'abc' }).api_url; // 'https://api.spotify.com/v1'
 */
export const SpotifyConfig = z.strictObject({
  client_id: z.string().min(1).describe('client ID of the app created on developer.spotify.com'),
  client_secret: z
    .string()
    .min(1)
    .optional()
    .describe('client secret of the app; without it the authorization uses PKCE'),
  redirect_uri: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'the /spotify/auth_callback address registered in the Spotify app (default: http://127.0.0.1:<backend.http.port>/spotify/auth_callback; set an https address to connect from another machine)',
    ),
  api_url: z
    .url({ protocol: /^https?$/ })
    .default('https://api.spotify.com/v1')
    .describe('Web API base address'),
  auth_url: z
    .url({ protocol: /^https?$/ })
    .default('https://accounts.spotify.com')
    .describe('Accounts service base address (/authorize, /api/token)'),
  request_timeout_seconds: z
    .number()
    .positive()
    .max(300)
    .default(10)
    .describe('how long one request to Spotify may take'),
  max_retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(3)
    .describe('retries after a 5xx, a network error, a timeout, a short 429 or a 202'),
  backoff_seconds: z
    .number()
    .min(0)
    .max(60)
    .default(0.5)
    .describe('first retry delay after a 5xx or network error; doubles each time'),
  max_backoff_seconds: z
    .number()
    .min(0)
    .max(300)
    .default(8)
    .describe('cap of the exponential backoff'),
  max_retry_after_seconds: z
    .number()
    .min(0)
    .max(3600)
    .default(30)
    .describe('longest Retry-After a 429 is waited out; longer ones fail at once'),
  wake_retry_seconds: z
    .number()
    .min(0)
    .max(30)
    .default(2)
    .describe('wait before retrying a player command answered 202 (device waking up)'),
  // Spotify limits apps over a rolling 30-second window: a read needs the same number of requests
  // whatever the concurrency (a 5,000-item playlist is 99), which only decides how fast they go out.
  // 16 at once reads that playlist in ~8 round trips instead of ~14 at 8; the cap of 32 keeps a
  // burst small, and a 429 pauses every request in flight (client.ts), not just the one refused.
  paging_concurrency: z
    .number()
    .int()
    .min(1)
    .max(32)
    .default(16)
    .describe('pages fetched at once when a read spans several pages (at most 32)'),
  search_page_size: z
    .number()
    .int()
    .min(1)
    .max(50)
    .default(10)
    .describe('results per search request: 10 for Development-Mode apps, up to 50 otherwise'),
  device_cache_seconds: z
    .number()
    .min(0)
    .max(3600)
    .default(30)
    .describe('how long device names stay cached (a miss always re-lists)'),
  refresh_margin_seconds: z
    .number()
    .min(0)
    .max(1800)
    .default(60)
    .describe('refresh the access token this long before it expires'),
  auth_state_ttl_seconds: z
    .number()
    .int()
    .min(30)
    .max(86400)
    .default(900)
    .describe('how long an authorization address stays valid'),
});
export type SpotifyConfig = z.output<typeof SpotifyConfig>;

/**
 * The scopes requested: the twelve that playback, playlists and the library need, plus
 * `user-read-playback-position` (Spotify needs it to list saved episodes) and `user-read-private`
 * (the account's own ID, for `get_playlists user=`).
 */
export const SCOPES = [
  'user-read-playback-state',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'user-read-recently-played',
  'app-remote-control',
  'streaming',
  'playlist-modify-public',
  'playlist-modify-private',
  'playlist-read-private',
  'playlist-read-collaborative',
  'user-library-modify',
  'user-library-read',
  'user-read-playback-position',
  'user-read-private',
] as const;
