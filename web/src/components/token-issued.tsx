import { buildCurl } from '../lib/curl.ts';
import { formatUnixTime } from '../lib/format.ts';
import type { IssuedToken } from '../lib/tokens.ts';
import { CopyButton } from './copy-button.tsx';

/** Shows a new token once, with copy buttons and a curl example that uses it. */
export function TokenIssued({ issued, onDismiss }: { issued: IssuedToken; onDismiss: () => void }) {
  const curl = buildCurl({
    baseUrl: location.origin,
    action: 'utils.echo',
    args: { hello: 'world' },
    token: issued.token,
  });
  return (
    <section class="card card-success token-issued" aria-labelledby="issued-title">
      <h3 id="issued-title">Token “{issued.name}” created</h3>
      <p>
        Copy it now: it will not be shown again.{' '}
        {issued.expires_at
          ? `It expires on ${formatUnixTime(issued.expires_at)}.`
          : 'It does not expire.'}
      </p>
      <label for="issued-token" class="label">
        Your new token
      </label>
      <textarea id="issued-token" class="code token-value" readOnly rows={3} value={issued.token} />
      <div class="button-row">
        <CopyButton text={issued.token} label="Copy token" />
      </div>
      <label for="issued-curl" class="label">
        Try it with curl
      </label>
      <textarea id="issued-curl" class="code" readOnly rows={7} value={curl} />
      <div class="button-row">
        <CopyButton text={curl} label="Copy curl example" />
        <button type="button" class="button button-ghost" onClick={onDismiss}>
          Done
        </button>
      </div>
    </section>
  );
}
