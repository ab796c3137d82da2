import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { createToken, parseExpiryDays } from '../lib/tokens.ts';
import type { IssuedToken } from '../lib/tokens.ts';
import { ErrorList } from './error-list.tsx';
import { TextField } from './text-field.tsx';

/** The form that generates a JWT: password re-entered, a name, an optional expiry in days. */
export function TokenCreate({ onCreated }: { onCreated: (token: IssuedToken) => void }) {
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [passwordError, setPasswordError] = useState<string>();
  const expiryCheck = parseExpiryDays(expiry);
  // The server's answer to the last attempt ("the password is wrong") goes once a field changes.
  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    setErrors([]);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setPasswordError(password ? undefined : 'Re-enter your password.');
    if (!password || expiryCheck.error) return;
    setBusy(true);
    setErrors([]);
    try {
      const issued = await createToken(password, name.trim(), expiryCheck.days);
      setPassword('');
      setName('');
      setExpiry('');
      onCreated(issued);
    } catch (err) {
      setErrors(messagesOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="card token-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="new-token-title"
    >
      <h3 id="new-token-title">New token</h3>
      <p class="muted">
        A token lets scripts and other services call <code>/execute</code> and the WebSockets as
        you. Re-enter your password to create one.
      </p>
      <div class="form-grid">
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={(v) => {
            edit(setPassword)(v);
            setPasswordError(undefined);
          }}
          autoComplete="current-password"
          required
          error={passwordError}
        />
        <TextField
          label="Token name"
          name="token_name"
          value={name}
          onInput={edit(setName)}
          placeholder="e.g. home-assistant"
          hint="Helps you recognise it in the list."
        />
        <TextField
          label="Expires after (days)"
          name="expiry_days"
          type="number"
          min={1}
          step="any"
          value={expiry}
          onInput={edit(setExpiry)}
          hint="Leave empty for a token that does not expire."
          error={expiryCheck.error}
        />
      </div>
      <ErrorList errors={errors} />
      <button type="submit" class="button button-primary" disabled={busy}>
        {busy ? 'Generating…' : 'Generate JWT token'}
      </button>
    </form>
  );
}
