import { secureToken } from '../random.ts';

/** A registered client application. `clientSecret: null` = public (PKCE-only) client. */
export interface App {
  clientId: string;
  clientSecret: string | null;
  redirectUris: string[];
  /** Development Mode allow-list; undefined = every user may use the app. */
  allowedUsers?: string[];
}

/** An issued access token. `userId: null` = client-credentials token. */
export interface AccessToken {
  token: string;
  userId: string | null;
  clientId: string;
  scopes: Set<string>;
  expiresAt: number;
  revoked: boolean;
}

/** An issued refresh token, bound to the original authorization time (6-month lifetime). */
export interface RefreshToken {
  token: string;
  userId: string;
  clientId: string;
  scopes: string[];
  authorizedAt: number;
  /** Issued through a PKCE code exchange (public client rules apply on refresh). */
  pkce: boolean;
  revoked: boolean;
}

/** A single-use authorization code. */
export interface AuthCode {
  code: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  used: boolean;
}

/** Every scope in the spec's `securitySchemes`. */
export const ALL_SCOPES = [
  'app-remote-control',
  'playlist-modify-private',
  'playlist-modify-public',
  'playlist-read-collaborative',
  'playlist-read-private',
  'streaming',
  'ugc-image-upload',
  'user-follow-modify',
  'user-follow-read',
  'user-library-modify',
  'user-library-read',
  'user-modify-playback-state',
  'user-read-currently-playing',
  'user-read-email',
  'user-read-playback-position',
  'user-read-playback-state',
  'user-read-private',
  'user-read-recently-played',
  'user-top-read',
] as const;

/** Apps, codes and tokens. */
export class AccountsStore {
  readonly apps = new Map<string, App>();
  readonly codes = new Map<string, AuthCode>();
  readonly accessTokens = new Map<string, AccessToken>();
  readonly refreshTokens = new Map<string, RefreshToken>();

  /**
   * Register an app; missing ID/secret are generated (32 hex-ish chars, like the dashboard's).
   * @example
   * store.registerApp({ redirectUris: ['http://127.0.0.1/callback'] });
   */
  registerApp(init: Partial<App> & { redirectUris: string[] }): App {
    const app: App = {
      clientId: init.clientId ?? secureToken(32).toLowerCase(),
      clientSecret:
        init.clientSecret === undefined ? secureToken(32).toLowerCase() : init.clientSecret,
      redirectUris: init.redirectUris,
    };
    if (init.allowedUsers) app.allowedUsers = init.allowedUsers;
    this.apps.set(app.clientId, app);
    return app;
  }

  /**
   * Issue an access token.
   * @example
   * store.issueAccess('user', 'client', ['user-read-private'], now + 3_600_000);
   */
  issueAccess(
    userId: string | null,
    clientId: string,
    scopes: Iterable<string>,
    expiresAt: number,
  ): AccessToken {
    const token: AccessToken = {
      token: `BQ${secureToken(100)}`,
      userId,
      clientId,
      scopes: new Set(scopes),
      expiresAt,
      revoked: false,
    };
    this.accessTokens.set(token.token, token);
    return token;
  }

  /**
   * Issue a refresh token.
   * @example
   * store.issueRefresh('user', 'client', scopes, now, false);
   */
  issueRefresh(
    userId: string,
    clientId: string,
    scopes: string[],
    authorizedAt: number,
    pkce: boolean,
  ): RefreshToken {
    const token: RefreshToken = {
      token: `AQ${secureToken(128)}`,
      userId,
      clientId,
      scopes,
      authorizedAt,
      pkce,
      revoked: false,
    };
    this.refreshTokens.set(token.token, token);
    return token;
  }

  /** Whether `uri` is allowed for the app: exact match, or a loopback literal with any port. */
  redirectAllowed(app: App, uri: string): boolean {
    if (app.redirectUris.includes(uri)) return true;
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' || (url.hostname !== '127.0.0.1' && url.hostname !== '[::1]'))
      return false;
    return app.redirectUris.some((registered) => {
      const r = URL.canParse(registered) ? new URL(registered) : null;
      return (
        r !== null &&
        r.hostname === url.hostname &&
        r.pathname === url.pathname &&
        r.search === url.search
      );
    });
  }
}
