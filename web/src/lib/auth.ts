import { api, setCsrfToken } from './api.ts';

// The server's answers, from its own schemas (type-only: nothing is bundled).
import type {
  AuthStatus,
  Credentials,
  RegisterBody,
  Session,
} from '../../../src/http/wire/auth.ts';

export type { AuthStatus };

/** Reads the session state and remembers its CSRF token. */
export async function fetchAuthStatus(): Promise<AuthStatus> {
  const status = await api<AuthStatus>('GET', '/auth/status');
  setCsrfToken(status.csrf_token);
  return status;
}

/** Registers the first user; the server logs them in at once (session cookie). */
export async function register(
  username: string,
  password: string,
  confirmPassword: string,
): Promise<string> {
  const res = await api<Session>('POST', '/register', {
    username,
    password,
    confirm_password: confirmPassword,
  } satisfies RegisterBody);
  setCsrfToken(res.csrf_token);
  return res.username;
}

/** Logs in (session cookie) and returns the user name. */
export async function login(username: string, password: string): Promise<string> {
  const res = await api<Session>('POST', '/login', { username, password } satisfies Credentials);
  setCsrfToken(res.csrf_token);
  return res.username;
}

/** Ends the session; the cookie is cleared by the server. */
export async function logout(): Promise<void> {
  try {
    await api('POST', '/logout');
  } finally {
    setCsrfToken(null);
  }
}

/** The validation rules of the server (user names 1–64 of [A-Za-z0-9._@-], passwords 8–1024). */
export function validateCredentials(
  username: string,
  password: string,
  confirm?: string,
): Record<'username' | 'password' | 'confirm', string | undefined> {
  return {
    username: !username
      ? 'Enter a user name.'
      : username.length > 64
        ? 'Use at most 64 characters.'
        : /^[A-Za-z0-9._@-]+$/.test(username)
          ? undefined
          : 'Use only letters, digits and . _ @ -',
    password:
      password.length < 8
        ? 'Use at least 8 characters.'
        : password.length > 1024
          ? 'Use at most 1024 characters.'
          : undefined,
    confirm: confirm !== undefined && confirm !== password ? 'The passwords differ.' : undefined,
  };
}
