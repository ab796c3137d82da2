import { useEffect, useState } from 'preact/hooks';
import { ErrorList } from '../components/error-list.tsx';
import { TokenCreate } from '../components/token-create.tsx';
import { TokenIssued } from '../components/token-issued.tsx';
import { TokenTable } from '../components/token-table.tsx';
import { messagesOf } from '../lib/api.ts';
import { listTokens, revokeToken } from '../lib/tokens.ts';
import type { IssuedToken, TokenInfo } from '../lib/tokens.ts';

/** Settings → Tokens: create, list and revoke API tokens. */
export function SettingsPage({ username }: { username: string }) {
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [status, setStatus] = useState('');

  const reload = () =>
    listTokens()
      .then((t) => {
        setTokens(t);
        setErrors([]);
      })
      .catch((err: unknown) => setErrors(messagesOf(err)));

  useEffect(() => void reload(), []);

  return (
    <>
      <div class="page-header">
        <h1>Settings</h1>
        <p class="muted">
          Signed in as <strong>{username}</strong>.
        </p>
      </div>
      <section aria-labelledby="tokens-title" class="section">
        <h2 id="tokens-title">Tokens</h2>
        {issued ? (
          <TokenIssued issued={issued} onDismiss={() => setIssued(null)} />
        ) : (
          <TokenCreate
            onCreated={(t) => {
              setIssued(t);
              setStatus('');
              void reload();
            }}
          />
        )}
        <h3 class="subheading">Your tokens</h3>
        <p class="visually-hidden" role="status">
          {status}
        </p>
        <ErrorList errors={errors} />
        {tokens === null ? (
          <p class="muted">Loading tokens…</p>
        ) : (
          <TokenTable
            tokens={tokens}
            onRevoke={async (t) => {
              try {
                await revokeToken(t.id);
                setStatus(`Token ${t.name || t.id} revoked.`);
                if (issued?.id === t.id) setIssued(null);
                await reload();
              } catch (err) {
                setErrors(messagesOf(err));
              }
            }}
          />
        )}
      </section>
    </>
  );
}
