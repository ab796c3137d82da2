import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { register, validateCredentials } from '../lib/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { ErrorList } from './error-list.tsx';
import { TextField } from './text-field.tsx';

/** First visit: creates the one local user, who is then logged in. */
export function RegisterForm({ onRegistered }: { onRegistered: (username: string) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const invalid = validateCredentials(username, password, confirm);
  const shown = submitted
    ? invalid
    : { username: undefined, password: undefined, confirm: undefined };

  const submit = async (e: Event) => {
    e.preventDefault();
    setSubmitted(true);
    if (invalid.username || invalid.password || invalid.confirm) return;
    setBusy(true);
    setErrors([]);
    try {
      onRegistered(await register(username, password, confirm));
    } catch (err) {
      setErrors(messagesOf(err));
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Create your account"
      intro="Welcome! No user exists yet on this Pipit instance: choose the user name and password you will sign in with."
    >
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Registration">
        <TextField
          label="User name"
          name="username"
          value={username}
          onInput={setUsername}
          autoComplete="username"
          required
          autoFocus
          error={shown.username}
          hint="Letters, digits and . _ @ - (up to 64)."
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          autoComplete="new-password"
          required
          error={shown.password}
          hint="At least 8 characters."
        />
        <TextField
          label="Confirm password"
          name="confirm_password"
          type="password"
          value={confirm}
          onInput={setConfirm}
          autoComplete="new-password"
          required
          error={shown.confirm}
        />
        <ErrorList errors={errors} />
        <button type="submit" class="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating account…' : 'Create account'}
        </button>
      </form>
    </AuthCard>
  );
}
