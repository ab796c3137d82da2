import { useCallback, useEffect, useState } from 'preact/hooks';
import { ErrorList } from './components/error-list.tsx';
import { LoginForm } from './components/login-form.tsx';
import { RegisterForm } from './components/register-form.tsx';
import { settingsSection } from './components/settings-nav.tsx';
import { Sidebar } from './components/sidebar.tsx';
import { messagesOf, setSessionLostHandler } from './lib/api.ts';
import { fetchAuthStatus, logout } from './lib/auth.ts';
import { navigate, usePath } from './lib/router.ts';
import { AutomationsLazy } from './pages/automations-lazy.tsx';
import { EventsPage } from './pages/events-page.tsx';
import { ExecutePage } from './pages/execute-page.tsx';
import { RunsPage } from './pages/runs-page.tsx';
import { SettingsPage } from './pages/settings-page.tsx';

type Session =
  | { state: 'loading' }
  | { state: 'error'; errors: string[] }
  | { state: 'register' }
  | { state: 'login'; notice?: string }
  | { state: 'in'; username: string };

const TITLES: Record<string, string> = {
  '/execute': 'Execute',
  '/runs': 'Runs',
  '/events': 'Events',
  '/automations': 'Automations',
  '/settings': 'Settings',
};

/** The menu page an address belongs to (`/settings/integrations` is Settings), if any. */
function pageOf(path: string): string | undefined {
  return Object.keys(TITLES).find((p) => path === p || path.startsWith(`${p}/`));
}

function titleOf(page: string, path: string): string {
  return page === '/settings'
    ? `${settingsSection(path).label} · Settings · Pipit`
    : `${TITLES[page]} · Pipit`;
}

/** The whole app: who is signed in decides between registration, login and the menu pages. */
export function App() {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const path = usePath();
  const page = pageOf(path) ?? '/execute';

  const refresh = useCallback(async () => {
    try {
      const status = await fetchAuthStatus();
      if (status.user) setSession({ state: 'in', username: status.user.username });
      else setSession({ state: status.registration_open ? 'register' : 'login' });
    } catch (err) {
      setSession({ state: 'error', errors: messagesOf(err) });
    }
  }, []);

  useEffect(() => {
    void refresh();
    setSessionLostHandler(() =>
      setSession({ state: 'login', notice: 'Your session has ended: please sign in again.' }),
    );
    return () => setSessionLostHandler(undefined);
  }, [refresh]);

  useEffect(() => {
    document.title = session.state === 'in' ? titleOf(page, path) : 'Pipit';
  }, [session.state, page, path]);

  const signedIn = (username: string) => {
    setSession({ state: 'in', username });
    if (!pageOf(location.pathname)) navigate('/execute');
  };

  switch (session.state) {
    case 'loading':
      return (
        <p class="loading" role="status">
          Loading…
        </p>
      );
    case 'error':
      return (
        <main class="auth-page">
          <div class="auth-card">
            <ErrorList title="Pipit could not be reached" errors={session.errors} />
            <button type="button" class="button button-primary" onClick={() => void refresh()}>
              Try again
            </button>
          </div>
        </main>
      );
    case 'register':
      return <RegisterForm onRegistered={signedIn} />;
    case 'login':
      return <LoginForm onLoggedIn={signedIn} notice={session.notice} />;
    case 'in':
      return (
        <div class="shell">
          <Sidebar
            current={page}
            username={session.username}
            onLogout={() =>
              void logout()
                .catch(() => undefined)
                .then(() => setSession({ state: 'login', notice: 'You have logged out.' }))
            }
          />
          <main class="content" id="main">
            {page === '/execute' ? <ExecutePage /> : null}
            {page === '/runs' ? <RunsPage path={path} /> : null}
            {page === '/events' ? <EventsPage /> : null}
            {page === '/automations' ? <AutomationsLazy path={path} /> : null}
            {page === '/settings' ? <SettingsPage username={session.username} path={path} /> : null}
          </main>
        </div>
      );
  }
}
