import { expect } from 'vitest';
import type { Harness } from './harness.ts';

/**
 * Shortcuts the player tests share: the control API, catalog durations, the seeded speaker, a
 * playlist's URIs, and starting the Road Trip playlist on the speaker.
 *
 * @example
 * const p = playerHelpers(() => h);
 * await p.playRoadTrip();
 */
export function playerHelpers(harness: () => Harness) {
  const h = () => harness();
  const ctl = () => h().emu.control;
  return {
    ctl,
    duration: (uri: string) => ctl().state.catalog.durationOf(uri)!,
    speaker: () => h().seed.deviceIds.speaker,
    playlistUris: (id: string) =>
      ctl()
        .state.playlists.byId.get(id)!
        .items.map((i) => i.uri),
    playRoadTrip: async (body: Record<string, unknown> = {}) => {
      const res = await h().call('PUT', '/me/player/play', {
        query: { device_id: h().seed.deviceIds.speaker },
        body: { context_uri: `spotify:playlist:${h().seed.roadTripPlaylistId}`, ...body },
      });
      expect(res.status).toBe(204);
    },
  };
}
