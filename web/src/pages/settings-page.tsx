import { HueCard } from '../components/hue-card.tsx';
import { ReloadConfig } from '../components/reload-config.tsx';
import { settingsSection, SettingsNav } from '../components/settings-nav.tsx';
import { SpotifyCard } from '../components/spotify-card.tsx';
import { TokensSection } from '../components/tokens-section.tsx';

/**
 * Settings: API tokens, integrations (Spotify) and the configuration, one section at a time.
 *
 * @example
 * <SettingsPage username="ada" path="/settings/integrations" />
 */
export function SettingsPage({ username, path }: { username: string; path: string }) {
  const section = settingsSection(path);
  return (
    <>
      <div class="page-header">
        <h1>Settings</h1>
        <p class="muted">
          Signed in as <strong>{username}</strong>.
        </p>
      </div>
      <SettingsNav current={section.path} />
      {section.path === '/settings/tokens' ? <TokensSection /> : null}
      {section.path === '/settings/integrations' ? (
        <section aria-labelledby="integrations-title" class="section">
          <h2 id="integrations-title">Integrations</h2>
          <p class="muted">The outside services this instance’s plugins work with.</p>
          <SpotifyCard />
          <HueCard />
        </section>
      ) : null}
      {section.path === '/settings/configuration' ? <ReloadConfig /> : null}
    </>
  );
}
