import { useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { login } from '../lib/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { ErrorList } from './error-list.tsx';
import { TextField } from './text-field.tsx';

/** Sign-in with user name and password; the server keeps the session in an HttpOnly cookie. */
export function LoginForm({
  onLoggedIn,
  notice,
}: {
  onLoggedIn: (username: string) => void;
  notice?: string;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!username || !password) {
      setErrors(['Enter your user name and password.']);
      return;
    }
    setBusy(true);
    setErrors([]);
    try {
      onLoggedIn(await login(username, password));
    } catch (err) {
      setErrors(messagesOf(err));
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Sign in" intro="Sign in to run actions, watch events and manage API tokens.">
      {notice ? (
        <p class="alert alert-info" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate aria-label="Sign in">
        <TextField
          label="User name"
          name="username"
          value={username}
          onInput={setUsername}
          autoComplete="username"
          required
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          autoComplete="current-password"
          required
        />
        <ErrorList errors={errors} />
        <button type="submit" class="button button-primary button-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  );
}
