import { navigate } from '../lib/router.ts';

/** The sections of Settings, each its own address (the callback page returns to Integrations). */
export const SETTINGS_SECTIONS = [
  { path: '/settings/tokens', label: 'Tokens' },
  { path: '/settings/integrations', label: 'Integrations' },
  { path: '/settings/configuration', label: 'Configuration' },
] as const;

export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/**
 * The section for an address under /settings (`/settings` alone is Tokens).
 *
 * @example
 * settingsSection('/settings/integrations').label; // 'Integrations'
 */
export function settingsSection(path: string): SettingsSection {
  return SETTINGS_SECTIONS.find((s) => s.path === path) ?? SETTINGS_SECTIONS[0];
}

/**
 * Links between the Settings sections (they scroll sideways on a narrow screen).
 *
 * @example
 * <SettingsNav current="/settings/integrations" />
 */
export function SettingsNav({ current }: { current: string }) {
  return (
    <nav aria-label="Settings sections" class="tabs">
      <ul>
        {SETTINGS_SECTIONS.map((s) => (
          <li key={s.path}>
            <a
              href={s.path}
              class="tab"
              aria-current={current === s.path ? 'page' : undefined}
              onClick={(e) => {
                if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                navigate(s.path);
              }}
            >
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
