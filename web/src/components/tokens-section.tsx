import { useEffect, useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { listTokens, revokeToken } from '../lib/tokens.ts';
import type { IssuedToken, TokenInfo } from '../lib/tokens.ts';
import { useTransient } from '../lib/transient.ts';
import { ErrorList } from './error-list.tsx';
import { TokenCreate } from './token-create.tsx';
import { TokenIssued } from './token-issued.tsx';
import { TokenTable } from './token-table.tsx';

/**
 * Settings → Tokens: create, list and revoke API tokens.
 *
 * @example
 * <TokensSection />
 */
export function TokensSection() {
  const [tokens, setTokens] = useState<TokenInfo[] | null>(null);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [status, showStatus, clearStatus] = useTransient();

  const reload = () =>
    listTokens()
      .then((t) => {
        setTokens(t);
        setErrors([]);
      })
      .catch((err: unknown) => setErrors(messagesOf(err)));

  useEffect(() => void reload(), []);

  return (
    <section aria-labelledby="tokens-title" class="section">
      <h2 id="tokens-title">Tokens</h2>
      {issued ? (
        <TokenIssued issued={issued} onDismiss={() => setIssued(null)} />
      ) : (
        <TokenCreate
          onCreated={(t) => {
            setIssued(t);
            clearStatus();
            void reload();
          }}
        />
      )}
      <h3 class="subheading">Your tokens</h3>
      <p class="status-line" role="status">
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
              showStatus(`Token ${t.name || t.id} revoked.`);
              if (issued?.id === t.id) setIssued(null);
              await reload();
            } catch (err) {
              setErrors(messagesOf(err));
            }
          }}
        />
      )}
    </section>
  );
}
