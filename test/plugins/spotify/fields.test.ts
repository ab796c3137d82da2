import { describe, expect, it } from 'vitest';
import { toPlaylist, toPlaylistItems } from '../../../src/plugins/music/spotify/mappers.ts';
import type { ApiPlaylist, ApiPlaylistPage } from '../../../src/plugins/music/spotify/mappers.ts';
import type { SpotifyEmulator } from '../../../tools/spotify-emulator/index.ts';
import type { TestApp } from '../../helpers/service.ts';
import { ok, useAuthorizedSpotify } from './helpers.ts';

let emu: SpotifyEmulator;
let t: TestApp;

useAuthorizedSpotify((f) => ({ emu, t } = f), { emulator: { bigPlaylistSize: 560 } });

// get_playlist asks Spotify for only the fields the mappers read (fields.ts): its output must be
// what the same mappers make of the full, unfiltered responses (560 items: item 500 is an episode).
describe('fields selections', () => {
  it('get_playlist reads the same playlist as from unfiltered responses, tracks and episodes', async () => {
    const id = emu.control.seed.bigPlaylistId;
    const { accessToken } = emu.control.mintToken({ scopes: ['playlist-read-private'] });
    const get = async <T>(path: string): Promise<T> => {
      const res = await fetch(`${emu.apiUrl}${path}`, {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      return (await res.json()) as T;
    };
    const body = await get<ApiPlaylist>(`/playlists/${id}?additional_types=track,episode`);
    const entries = [...(body.items ?? body.tracks)!.items!];
    while (entries.length < 560) {
      const page = await get<ApiPlaylistPage>(
        `/playlists/${id}/items?offset=${entries.length}&limit=50&additional_types=track,episode`,
      );
      entries.push(...page.items!);
    }
    const unfiltered = toPlaylist(body, toPlaylistItems(entries, 0));
    const kinds = new Set(unfiltered.tracks!.map((x) => x.type));
    expect(kinds).toEqual(new Set(['track', 'episode']));

    emu.control.clearRequests();
    expect(await ok(t, 'get_playlist', { playlist: `spotify:playlist:${id}` })).toEqual(unfiltered);
    const queries = emu.control.requests({ path: '/v1/playlists/*' }).map((r) => r.query);
    expect(queries.every((q) => typeof q.fields === 'string' && q.fields.includes('items('))).toBe(
      true,
    );
  });
});
