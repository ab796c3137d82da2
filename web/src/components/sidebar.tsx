import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { navigate } from '../lib/router.ts';
import { Logo } from './logo.tsx';

/** The pages of the menu, in order. */
export const PAGES = [
  { path: '/execute', label: 'Execute', icon: '▶' },
  { path: '/runs', label: 'Runs', icon: '↻' },
  { path: '/events', label: 'Events', icon: '◉' },
  { path: '/automations', label: 'Automations', icon: '⚡' },
  { path: '/settings', label: 'Settings', icon: '⚙' },
] as const;

interface SidebarProps {
  current: string;
  username: string;
  onLogout: () => void;
}

/**
 * The menu: a sidebar on wide screens; on phones one compact bar (see layout.css) where the
 * account and "Log out" fold behind a button.
 *
 * @example
 * <Sidebar current="/settings" username="ada" onLogout={() => void logout()} />
 */
export function Sidebar({ current, username, onLogout }: SidebarProps) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const account = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // The folded account panel closes on Escape and on a press outside it. A layout effect: the
  // listeners are in place when the panel is shown, not after the next paint (a useEffect waits
  // for it, up to 100 ms in a background tab), so an Escape pressed at once still closes it.
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPress = (e: PointerEvent) => {
      if (!account.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
    };
  }, [open]);

  // On a phone the menu may scroll sideways (five pages on a narrow bar): the current page's link
  // is brought into view, so the bar always shows where one is.
  const menu = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const link = menu.current?.querySelector<HTMLElement>('[aria-current="page"]');
    const bar = menu.current;
    if (!link || !bar || bar.scrollWidth <= bar.clientWidth) return;
    const left = link.offsetLeft - bar.offsetLeft;
    if (left < bar.scrollLeft || left + link.offsetWidth > bar.scrollLeft + bar.clientWidth)
      bar.scrollLeft = left + link.offsetWidth - bar.clientWidth;
  }, [current]);

  return (
    <header class="sidebar">
      <div class="brand">
        <Logo />
        <span class="brand-name">Pipit</span>
      </div>
      <nav aria-label="Main menu" class="menu" ref={menu}>
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
      <div class="account" ref={account}>
        <button
          ref={toggle}
          type="button"
          class="account-toggle"
          aria-expanded={open}
          aria-controls={panelId}
          title={`Signed in as ${username}`}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true">{username.slice(0, 1).toUpperCase()}</span>
          <span class="visually-hidden">Account</span>
        </button>
        <div id={panelId} class={`account-panel${open ? ' account-panel-open' : ''}`}>
          <span class="account-name" title="Signed in as">
            <span class="visually-hidden">Signed in as </span>
            {username}
          </span>
          <button type="button" class="button button-ghost" onClick={onLogout}>
            Log out
          </button>
        </div>
      </div>
    </header>
  );
}
