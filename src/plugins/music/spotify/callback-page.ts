import type { SpotifyProfile } from './auth-records.ts';
import { describeUser } from './auth-status.ts';

/** What the page that ends the authorization says. */
export interface CallbackView {
  ok: boolean;
  /** The reason of a failure (shown as it is, escaped). */
  text: string;
  /** The account authorized, when Spotify told. */
  user?: SpotifyProfile;
}

/** Where the page finds its stylesheet and, in the service, the way back to the web UI. */
export interface CallbackPageLinks {
  /** The stylesheet's address, relative to the callback's (see {@link CALLBACK_CSS}). */
  stylesheet?: string;
  /** Settings → Integrations, relative to the callback's address; absent in the CLI. */
  returnTo?: string;
}

/** Seconds before a successful page returns to Settings → Integrations on its own. */
export const RETURN_AFTER_SECONDS = 4;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The Pipit mark of the web UI (web/src/components/logo.tsx), with its colours as attributes:
// the page's Content-Security-Policy allows no inline styles.
const LOGO =
  '<svg class="logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M9 23V9h7.5a4.5 4.5 0 0 1 0 9H13v5z" fill="#fff"/></svg>';

/**
 * The HTML page the browser lands on after Spotify's redirect: the web UI's look (its stylesheet
 * comes from {@link CALLBACK_CSS}, as the security policy allows no inline styles), a clear
 * outcome, and the way back to Settings → Integrations (automatic after success).
 *
 * @example
 * callbackPage({ ok: true, text: '', user: { id: 'ada', display_name: 'Ada' } },
 *   { stylesheet: 'auth_callback.css', returnTo: '../settings/integrations' });
 */
export function callbackPage(view: CallbackView, links: CallbackPageLinks = {}): string {
  const title = view.ok ? 'Spotify connected' : 'Spotify authorization failed';
  const who = view.user ? ` as <strong>${escapeHtml(describeUser(view.user))}</strong>` : '';
  const message = view.ok
    ? `<p>Pipit is now authorized to use Spotify${who}.</p>`
    : `<p class="reason">${escapeHtml(view.text)}</p><p class="muted">Nothing else changed: an earlier authorization, if any, still stands.</p>`;
  const back = links.returnTo ? escapeHtml(links.returnTo) : undefined;
  const next = back
    ? `${view.ok ? `<p class="muted" role="status">Returning to Settings → Integrations in ${RETURN_AFTER_SECONDS} seconds…</p>` : ''}<p><a class="button" href="${back}">Back to Settings → Integrations</a></p>`
    : '<p class="muted">You can close this window and return to the terminal.</p>';
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${title} · Pipit</title>`,
    links.stylesheet ? `<link rel="stylesheet" href="${escapeHtml(links.stylesheet)}">` : '',
    view.ok && back
      ? `<meta http-equiv="refresh" content="${RETURN_AFTER_SECONDS}; url=${back}">`
      : '',
  ].join('');
  return `<!doctype html><html lang="en"><head>${head}</head><body><main class="page"><div class="card ${view.ok ? 'card-ok' : 'card-error'}"><div class="brand">${LOGO}<span>Pipit</span></div><h1><span class="icon" aria-hidden="true">${view.ok ? '✓' : '!'}</span>${title}</h1>${message}${next}</div></main></body></html>`;
}

/** The callback page's stylesheet: the web UI's colours and card (web/src/styles/base.css). */
export const CALLBACK_CSS = `*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;padding:0}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;font-size:15px;line-height:1.5;color:#1c2130;background:#f5f6fa;-webkit-font-smoothing:antialiased}
.page{min-height:100vh;display:grid;place-items:center;padding:1.5rem 1rem}
.card{width:100%;max-width:440px;background:#fff;border:1px solid #dde1ea;border-top-width:4px;border-radius:14px;box-shadow:0 1px 2px rgb(16 24 40 / 6%),0 1px 3px rgb(16 24 40 / 8%);padding:2rem 1.75rem}
.card-ok{border-top-color:#15803d}
.card-error{border-top-color:#b42318}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.2rem;margin-bottom:1.25rem}
.logo{width:28px;height:28px;flex:none}
h1{display:flex;align-items:center;gap:.6rem;font-size:1.35rem;line-height:1.25;margin:0 0 .75rem}
.icon{display:inline-grid;place-items:center;width:1.8rem;height:1.8rem;border-radius:50%;font-size:1rem;flex:none}
.card-ok .icon{background:#e8f7ee;color:#15803d}
.card-error .icon{background:#fdecea;color:#b42318}
p{margin:0 0 .75rem;overflow-wrap:anywhere}
.reason{background:#fdecea;color:#b42318;border:1px solid #f4c3bd;border-radius:6px;padding:.7rem .9rem}
.muted{color:#5b6478}
.button{display:inline-flex;align-items:center;justify-content:center;font-weight:600;font-size:.92rem;padding:.55rem 1rem;border-radius:6px;background:#4f46e5;color:#fff;text-decoration:none}
.button:hover{background:#4338ca}
.button:focus-visible{outline:3px solid rgb(79 70 229 / 45%);outline-offset:2px}
`;
