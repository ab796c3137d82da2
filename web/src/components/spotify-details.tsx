import { formatRelative, formatUnixTime } from '../lib/format.ts';
import type { SpotifyAuthStatus } from '../lib/spotify.ts';

/**
 * What a connected Spotify authorization is: account, token expiry, scopes, flow, client.
 *
 * @example
 * <SpotifyDetails status={await fetchSpotifyStatus()} />
 */
export function SpotifyDetails({ status }: { status: SpotifyAuthStatus }) {
  const expired = status.expires_at !== null && status.expires_at * 1000 <= Date.now();
  return (
    <>
      <dl class="facts">
        <div>
          <dt>Account</dt>
          <dd>
            {status.user ? (
              <>
                {status.user.display_name ?? status.user.id}{' '}
                <span class="muted">
                  (Spotify ID <code>{status.user.id}</code>)
                </span>
              </>
            ) : (
              <span class="muted">
                Spotify did not say{status.user_error ? `: ${status.user_error}` : ''}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Access token</dt>
          <dd>
            {status.expires_at === null
              ? '—'
              : `${expired ? 'expired' : 'valid until'} ${formatUnixTime(status.expires_at)} (${formatRelative(status.expires_at)})`}
            <span class="muted">
              {status.refreshable
                ? expired
                  ? ' · renewed on the next use'
                  : ' · renewed automatically'
                : ' · no refresh token: connect again when it expires'}
            </span>
          </dd>
        </div>
        {status.authorized_at !== null ? (
          <div>
            <dt>Authorized</dt>
            <dd>{formatUnixTime(status.authorized_at)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Scopes</dt>
          <dd>
            <details class="scopes">
              <summary>{status.scopes.length} granted</summary>
              <ul>
                {status.scopes.map((s) => (
                  <li key={s}>
                    <code>{s}</code>
                  </li>
                ))}
              </ul>
            </details>
          </dd>
        </div>
        <div>
          <dt>Flow</dt>
          <dd>
            {status.flow === 'pkce'
              ? 'Authorization code with PKCE (no client secret)'
              : 'Authorization code with the client secret'}
          </dd>
        </div>
        <div>
          <dt>Client ID</dt>
          <dd>
            <code class="wrap">{status.client_id}</code>
          </dd>
        </div>
      </dl>
      {status.missing_scopes.length ? (
        <div class="alert alert-warn" role="note">
          <strong>Spotify did not grant every scope Pipit asks for.</strong>
          <p>
            Missing: {status.missing_scopes.join(', ')}. Actions that need them will fail: reconnect
            and allow them.
          </p>
        </div>
      ) : null}
    </>
  );
}
