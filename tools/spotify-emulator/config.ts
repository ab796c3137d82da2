import type { ClockOptions } from './clock.ts';
import type { CatalogSize } from './state/catalog.ts';
import type { User } from './state/users.ts';

export type ApiMode = 'development' | 'extended';
export type RefreshRotation = 'none' | 'always' | 'pkce-only';
export type PlayerSuccess = 204 | '200-text';

/** Behaviour switches that tests may flip at run time (`control.configure`). */
export interface RuntimeConfig {
  /** `development` (default): Feb-2026 rules; `extended`: Extended Quota Mode. */
  mode: ApiMode;
  tokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Whether a refresh response carries a new refresh token (the old one is then revoked). */
  refreshRotation: RefreshRotation;
  /** 204 (spec) or 200 with a short text body (live behaviour since 2024). */
  playerSuccess: PlayerSuccess;
  /** Pause-when-paused and play-when-playing give 403 "Restriction violated". */
  strictRestrictions: boolean;
  /** Send the deprecated `tracks`/`track` next to `items`/`item` on playlists. */
  legacyPlaylistFieldAliases: boolean;
  /** A skipped track enters the history after this much playback. */
  historyMinMs: number;
  /** How many upcoming context items `GET /me/player/queue` lists after the user queue. */
  queueUpcoming: number;
  /** What `/authorize` answers when the request does not say. */
  authorizeDecision: 'allow' | 'deny';
  /** The user `/authorize` consents as when the request does not say. */
  authorizeUser: string;
}

/** Options of `startSpotifyEmulator`. */
export interface EmulatorOptions extends Partial<RuntimeConfig> {
  /** 0 (default) = a free port. */
  port?: number;
  host?: string;
  /** Catalog/library seed (default 1). */
  seed?: number;
  /** Shorthand: true = `refreshRotation: 'always'`, false = `'none'`. */
  rotateRefreshTokens?: boolean;
  /** The default user (premium unless told otherwise). */
  user?: Partial<User>;
  clock?: ClockOptions;
  /** The default app; a secret of `null` makes it a public (PKCE-only) client. */
  app?: { clientId?: string; clientSecret?: string | null; redirectUris?: string[] };
  catalogSize?: Partial<CatalogSize>;
  /** Items in the seeded big playlist (default 5,000). */
  bigPlaylistSize?: number;
  /** Print one line per request to stdout (the CLI turns this on). */
  logToStdout?: boolean;
}

/** Default redirect URI of the default app (any port is accepted on the loopback literal). */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1/callback';

/**
 * Pipit's own default redirect URI (`music.spotify`'s `redirect_uri`), which `npm run emulator`
 * accepts unless told otherwise, so that a Pipit with default settings can connect to it.
 * test/plugins/spotify/emulator-cli.test.ts holds the two to the same value.
 */
export const PIPIT_REDIRECT_URI = 'http://127.0.0.1:8008/spotify/auth_callback';

/**
 * Fill in defaults.
 * @example
 * const config = runtimeConfig({ tokenTtlSeconds: 60 });
 */
export function runtimeConfig(options: EmulatorOptions): RuntimeConfig {
  const rotation =
    options.refreshRotation ??
    (options.rotateRefreshTokens === undefined
      ? 'none'
      : options.rotateRefreshTokens
        ? 'always'
        : 'none');
  return {
    mode: options.mode ?? 'development',
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    refreshTokenTtlDays: options.refreshTokenTtlDays ?? 182,
    refreshRotation: rotation,
    playerSuccess: options.playerSuccess ?? 204,
    strictRestrictions: options.strictRestrictions ?? true,
    legacyPlaylistFieldAliases: options.legacyPlaylistFieldAliases ?? true,
    historyMinMs: options.historyMinMs ?? 30_000,
    queueUpcoming: options.queueUpcoming ?? 20,
    authorizeDecision: options.authorizeDecision ?? 'allow',
    authorizeUser: options.authorizeUser ?? options.user?.id ?? 'pipit-tester',
  };
}
