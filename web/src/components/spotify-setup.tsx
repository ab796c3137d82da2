/**
 * The redirect URI to whitelist for this browser's view of Pipit: Spotify accepts plain http
 * only on the loopback literals (never `localhost`), anything else needs https.
 *
 * @example
 * suggestedRedirectUri(new URL('http://localhost:8008/settings')); // 'http://127.0.0.1:8008/spotify/auth_callback'
 */
export function suggestedRedirectUri(here: { protocol: string; hostname: string; port: string }) {
  const path = '/spotify/auth_callback';
  const port = here.port ? `:${here.port}` : '';
  if (here.protocol === 'https:') return `https://${here.hostname}${port}${path}`;
  if (['localhost', '127.0.0.1', '[::1]'].includes(here.hostname))
    return `http://${here.hostname === '[::1]' ? '[::1]' : '127.0.0.1'}${port}${path}`;
  return `http://127.0.0.1:8008${path}`;
}

/**
 * How to configure the plugin, shown while `music.spotify` has no configuration section.
 *
 * @example
 * {status.configured ? null : <SpotifySetup />}
 */
export function SpotifySetup() {
  const redirect = suggestedRedirectUri(location);
  const remote = location.protocol === 'http:' && !redirect.includes(location.host);
  return (
    <div class="setup">
      <p>
        The <code>music.spotify</code> plugin has no configuration section (or it says{' '}
        <code>enabled: false</code>), so Pipit cannot connect to Spotify yet. To set it up:
      </p>
      <ol class="steps">
        <li>
          Create an app (Web API) at{' '}
          <a href="https://developer.spotify.com/dashboard" target="_blank" rel="noreferrer">
            developer.spotify.com/dashboard
          </a>{' '}
          and add this redirect URI to it: <code class="wrap">{redirect}</code>
          {remote ? (
            <span class="hint">
              {' '}
              Spotify accepts plain http only on 127.0.0.1: from another machine, serve Pipit over
              https and use <code>https://your-host/spotify/auth_callback</code>.
            </span>
          ) : null}
        </li>
        <li>
          Add a section to Pipit’s configuration file with the app’s client ID:
          <pre class="code" aria-label="Configuration example">
            {`music.spotify:
  client_id: <your app's client ID>
  client_secret: <its secret>   # optional: without it Pipit uses PKCE
  redirect_uri: ${redirect}`}
          </pre>
        </li>
        <li>Restart Pipit, then come back here and choose Connect.</li>
      </ol>
    </div>
  );
}
