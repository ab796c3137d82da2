import { useState } from 'preact/hooks';
import { formatUnixTime } from '../lib/format.ts';
import type { TokenInfo } from '../lib/tokens.ts';

interface TokenTableProps {
  tokens: TokenInfo[];
  onRevoke: (token: TokenInfo) => Promise<void>;
}

function isExpired(t: TokenInfo): boolean {
  return t.expires_at !== null && t.expires_at * 1000 < Date.now();
}

/** The user's tokens; revoking asks for a confirmation in the row itself. */
export function TokenTable({ tokens, onRevoke }: TokenTableProps) {
  const [confirming, setConfirming] = useState<string>();
  if (!tokens.length) return <p class="empty">No tokens yet.</p>;
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="visually-hidden">API tokens</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id}>
              <th scope="row" data-label="Name">
                {t.name || <span class="muted">(unnamed)</span>}
              </th>
              <td data-label="Created">{formatUnixTime(t.created_at)}</td>
              <td data-label="Expires">
                {t.expires_at === null ? 'Never' : formatUnixTime(t.expires_at)}
                {isExpired(t) ? <span class="badge badge-error"> expired</span> : null}
              </td>
              <td data-label="Last used">
                {t.last_used_at ? formatUnixTime(t.last_used_at) : 'Never'}
              </td>
              <td class="row-actions">
                {confirming === t.id ? (
                  <>
                    <button
                      type="button"
                      class="button button-danger button-small"
                      onClick={() => void onRevoke(t).finally(() => setConfirming(undefined))}
                    >
                      Confirm revoke
                    </button>
                    <button
                      type="button"
                      class="button button-ghost button-small"
                      onClick={() => setConfirming(undefined)}
                    >
                      Cancel
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    class="button button-secondary button-small"
                    aria-label={`Revoke token ${t.name || t.id}`}
                    onClick={() => setConfirming(t.id)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
