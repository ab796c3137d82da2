import { defineConfig } from 'vitepress';

// The pages are plain Markdown that also read well on a code host, with links between them written
// as `./page.md`: so no clean URLs (the built site keeps the .md → .html mapping VitePress makes of
// such links), and dead links are left to fail the build (VitePress's default).
export default defineConfig({
  title: 'Pipit',
  description:
    'Self-hosted automation service: plugin actions, procedures, hooks, cron and web hooks behind one execute()',
  cleanUrls: false,
  srcExclude: ['screenshots/**', '.vitepress/**'],
  themeConfig: {
    outline: [2, 3],
    search: { provider: 'local' },
    sidebar: [
      {
        text: 'Using Pipit',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'Getting started', link: '/getting-started.md' },
          { text: 'Configuration', link: '/configuration.md' },
          { text: 'Command line and library', link: '/cli.md' },
          { text: 'Automations', link: '/automations.md' },
          { text: 'Expressions and conditions', link: '/expressions.md' },
          { text: 'Web UI', link: '/web-ui.md' },
          { text: 'HTTP and WebSocket API', link: '/api.md' },
        ],
      },
      {
        text: 'Plugins',
        items: [
          { text: 'Overview', link: '/plugins/index.md' },
          { text: 'utils', link: '/plugins/utils.md' },
          { text: 'logger', link: '/plugins/logger.md' },
          { text: 'variable', link: '/plugins/variable.md' },
          { text: 'inspect', link: '/plugins/inspect.md' },
          { text: 'event', link: '/plugins/event.md' },
          { text: 'runs (run history)', link: '/plugins/runs.md' },
          { text: 'automations', link: '/plugins/automations.md' },
          { text: 'shell', link: '/plugins/shell.md' },
          { text: 'file', link: '/plugins/file.md' },
          { text: 'http', link: '/plugins/http.md' },
          { text: 'mqtt', link: '/plugins/mqtt.md' },
          { text: 'zigbee.mqtt', link: '/plugins/zigbee.mqtt.md' },
          { text: 'music.spotify', link: '/plugins/music.spotify.md' },
          { text: 'homeassistant', link: '/plugins/homeassistant.md' },
          { text: 'light.hue', link: '/plugins/light.hue.md' },
          { text: 'system', link: '/plugins/system.md' },
          { text: 'db', link: '/plugins/db.md' },
          { text: 'ntfy', link: '/plugins/ntfy.md' },
          { text: 'mail.smtp', link: '/plugins/mail-smtp.md' },
          { text: 'chat.telegram', link: '/plugins/chat-telegram.md' },
          { text: 'music.mpd', link: '/plugins/music-mpd.md' },
        ],
      },
      {
        text: 'Running Pipit',
        items: [
          { text: 'Operations', link: '/operations.md' },
          { text: 'Several machines', link: '/cluster.md' },
          { text: 'Migrating from Platypush', link: '/migrating-from-platypush.md' },
        ],
      },
      {
        text: 'Working on Pipit',
        items: [
          { text: 'Writing a plugin', link: '/writing-a-plugin.md' },
          { text: 'Development', link: '/development.md' },
          { text: 'Benchmarks', link: '/benchmarks.md' },
        ],
      },
    ],
  },
});
