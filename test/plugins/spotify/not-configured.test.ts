// Without a music.spotify section, `pipit spotify login` says how to add one in the message itself:
// an installed package has README.md but not the plugin's own documentation under src/.
import { describe, expect, it } from 'vitest';
import { spotifyLogin } from '../../../src/cli/spotify.ts';
import { PipitError } from '../../../src/core/errors.ts';
import { makeApp } from '../../helpers/service.ts';

describe('music.spotify without a configuration section', () => {
  it('pipit spotify login names the section, the client ID and where the app comes from', async () => {
    const t = await makeApp();
    try {
      const lines: string[] = [];
      const failure = await spotifyLogin(t.service, {
        timeoutSeconds: 1,
        out: (l) => lines.push(l),
      }).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(PipitError);
      const err = failure as PipitError;
      expect(err.code).toBe('CONFIG_INVALID');
      expect(err.message).toContain('"music.spotify:" section');
      expect(err.message).toContain('client_id:');
      expect(err.message).toContain('https://developer.spotify.com/dashboard');
      expect(err.message).toContain('/spotify/auth_callback');
      expect(err.message).not.toMatch(/src\//);
      expect(lines).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("the plugin's catalog points at the README the package ships and states get_playlist's default", async () => {
    const t = await makeApp(
      'music.spotify:\n  client_id: 0123456789abcdef0123456789abcdef\n  redirect_uri: http://127.0.0.1:8008/spotify/auth_callback\n',
    );
    try {
      const plugin = t.service.registry.catalog().find((p) => p.name === 'music.spotify')!;
      expect(plugin.summary).toContain('README.md, "The Spotify plugin"');
      expect(plugin.summary).not.toMatch(/src\//);
      const getPlaylist = plugin.actions.find((a) => a.name === 'music.spotify.get_playlist')!;
      expect(getPlaylist.description).toMatch(/^with_tracks defaults to true;/);
    } finally {
      await t.close();
    }
  });
});
