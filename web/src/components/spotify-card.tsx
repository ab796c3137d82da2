import { useEffect, useRef, useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { disconnectSpotify, fetchSpotifyStatus, startSpotifyAuth } from '../lib/spotify.ts';
import type { SpotifyAuthStatus } from '../lib/spotify.ts';
import { useTransient } from '../lib/transient.ts';
import { ErrorList } from './error-list.tsx';
import { SpotifyDetails } from './spotify-details.tsx';
import { SpotifySetup } from './spotify-setup.tsx';

type Confirming = 'reconnect' | 'disconnect' | null;

function pill(status: SpotifyAuthStatus | null): [string, string] {
  if (!status) return ['pill-connecting', 'Checking…'];
  if (!status.configured) return ['pill-neutral', 'Not configured'];
  return status.connected ? ['pill-ok', 'Connected'] : ['pill-connecting', 'Not connected'];
}

/**
 * Settings → Integrations → Spotify: whether the plugin is configured, who it is connected as,
 * and Connect / Reconnect / Disconnect (the last two confirmed first). Connect leaves for
 * Spotify's authorization page in this tab; the callback page brings the user back here.
 *
 * @example
 * <SpotifyCard />
 */
export function SpotifyCard() {
  const [status, setStatus] = useState<SpotifyAuthStatus | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [note, showNote, clearNote] = useTransient();
  const confirmButton = useRef<HTMLButtonElement>(null);

  const load = () =>
    fetchSpotifyStatus()
      .then(setStatus)
      .catch((err: unknown) => setErrors(messagesOf(err)));
  useEffect(() => void load(), []);
  useEffect(() => confirmButton.current?.focus(), [confirming]);

  const ask = (what: Confirming) => {
    setConfirming(what);
    setErrors([]);
    clearNote();
  };

  const connect = async (reconnect: boolean) => {
    setBusy(true);
    setErrors([]);
    try {
      const { url } = await startSpotifyAuth(reconnect);
      // Busy until the browser has left for Spotify.
      location.assign(url);
    } catch (err) {
      setErrors(messagesOf(err));
      setBusy(false);
    }
  };

  const disconnect = async () => {
    setBusy(true);
    setErrors([]);
    try {
      await disconnectSpotify();
      setConfirming(null);
      showNote('Spotify disconnected: Pipit deleted its tokens.');
      await load();
    } catch (err) {
      setErrors(messagesOf(err));
    } finally {
      setBusy(false);
    }
  };

  const [pillClass, pillText] = pill(status);
  const who = status?.user ? (status.user.display_name ?? status.user.id) : undefined;
  return (
    <section class="card integration" aria-labelledby="spotify-title">
      <div class="card-head">
        <h3 id="spotify-title">Spotify</h3>
        <span class={`pill ${pillClass}`}>{pillText}</span>
      </div>
      <p class="muted">
        The <code>music.spotify</code> plugin: playback on your devices, playlists, library and
        search.
      </p>
      {status === null && !errors.length ? <p class="muted">Checking the connection…</p> : null}
      {status && !status.configured ? <SpotifySetup /> : null}
      {status?.configured && !status.connected ? (
        <>
          <p class="lead">Not connected: nobody has authorized Pipit with Spotify yet.</p>
          <dl class="facts">
            <div>
              <dt>Client ID</dt>
              <dd>
                <code class="wrap">{status.client_id}</code>
              </dd>
            </div>
            <div>
              <dt>Redirect URI</dt>
              <dd>
                <code class="wrap">{status.redirect_uri}</code>{' '}
                <span class="muted">(must be listed in the Spotify app)</span>
              </dd>
            </div>
          </dl>
          <div class="button-row">
            <button
              type="button"
              class="button button-primary"
              disabled={busy}
              onClick={() => void connect(false)}
            >
              {busy ? 'Opening Spotify…' : 'Connect Spotify'}
            </button>
          </div>
          <p class="hint">Spotify opens in this tab; once you allow access you come back here.</p>
        </>
      ) : null}
      {status?.connected ? (
        <>
          <p class="lead">
            Connected as <strong>{who ?? 'an account Spotify did not name'}</strong>.
          </p>
          <SpotifyDetails status={status} />
          {confirming === 'reconnect' ? (
            <div class="confirm" role="group" aria-label="Reconnect Spotify">
              <p>
                Spotify is already connected{who ? ` as ${who}` : ''}. Reconnecting replaces this
                authorization: Spotify asks again, so you can choose another account or allow
                missing scopes.
              </p>
              <div class="button-row">
                <button
                  ref={confirmButton}
                  type="button"
                  class="button button-primary"
                  disabled={busy}
                  onClick={() => void connect(true)}
                >
                  {busy ? 'Opening Spotify…' : 'Continue to Spotify'}
                </button>
                <button type="button" class="button button-ghost" onClick={() => ask(null)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : confirming === 'disconnect' ? (
            <div class="confirm confirm-danger" role="group" aria-label="Disconnect Spotify">
              <p>
                Disconnect Spotify? Pipit deletes its tokens, and <code>music.spotify</code> actions
                fail until you connect again. To withdraw Pipit’s access at Spotify too, remove the
                app under{' '}
                <a href="https://www.spotify.com/account/apps/" target="_blank" rel="noreferrer">
                  spotify.com/account/apps
                </a>
                .
              </p>
              <div class="button-row">
                <button
                  ref={confirmButton}
                  type="button"
                  class="button button-danger"
                  disabled={busy}
                  onClick={() => void disconnect()}
                >
                  {busy ? 'Disconnecting…' : 'Yes, disconnect'}
                </button>
                <button type="button" class="button button-ghost" onClick={() => ask(null)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <div class="button-row">
              <button
                type="button"
                class="button button-secondary"
                onClick={() => ask('reconnect')}
              >
                Reconnect
              </button>
              <button type="button" class="button button-ghost" onClick={() => ask('disconnect')}>
                Disconnect
              </button>
            </div>
          )}
        </>
      ) : null}
      <p class="status-line" role="status">
        {note}
      </p>
      <ErrorList errors={errors} />
    </section>
  );
}
