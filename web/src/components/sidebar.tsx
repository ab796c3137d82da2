import { navigate } from '../lib/router.ts';
import { Logo } from './logo.tsx';

/** The pages of the menu, in order. */
export const PAGES = [
  { path: '/execute', label: 'Execute', icon: '▶' },
  { path: '/events', label: 'Events', icon: '◉' },
  { path: '/settings', label: 'Settings', icon: '⚙' },
] as const;

interface SidebarProps {
  current: string;
  username: string;
  onLogout: () => void;
}

/** The menu: a sidebar on wide screens, a top bar on phones (see layout.css). */
export function Sidebar({ current, username, onLogout }: SidebarProps) {
  return (
    <header class="sidebar">
      <div class="brand">
        <Logo />
        <span>Pipit</span>
      </div>
      <nav aria-label="Main menu" class="menu">
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <a
                href={p.path}
                class="menu-link"
                aria-current={current === p.path ? 'page' : undefined}
                onClick={(e) => {
                  if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                  e.preventDefault();
                  navigate(p.path);
                }}
              >
                <span class="menu-icon" aria-hidden="true">
                  {p.icon}
                </span>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="account">
        <span class="account-name" title="Signed in as">
          <span class="visually-hidden">Signed in as </span>
          {username}
        </span>
        <button type="button" class="button button-ghost" onClick={onLogout}>
          Log out
        </button>
      </div>
    </header>
  );
}
