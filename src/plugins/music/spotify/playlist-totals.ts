import type { ApiPlaylist } from './mappers.ts';
import type { SpotifyState } from './state.ts';

// How many items the playlists the plugin has seen lately had, so that get_playlist can ask for
// the pages after the first along with the playlist object instead of after it (one round trip
// less: a 5,000-item playlist then takes 7 round trips at concurrency 16, not 8). A stale total
// costs little: pages past the real end come back empty, missing ones are asked for afterwards.
const MAX_ENTRIES = 1000;
const seen = new WeakMap<SpotifyState, Map<string, number>>();

/**
 * Remembers how many items a playlist has (the least recently seen go first when it is full).
 *
 * @example
 * rememberTotal(state, body.id, body.items?.total);
 */
export function rememberTotal(state: SpotifyState, id: string, total: number | undefined): void {
  if (typeof total !== 'number') return;
  let totals = seen.get(state);
  if (!totals) seen.set(state, (totals = new Map<string, number>()));
  totals.delete(id);
  totals.set(id, total);
  if (totals.size > MAX_ENTRIES) totals.delete(totals.keys().next().value!);
}

/**
 * Remembers the totals of listed playlists (simplified objects carry `items.total`).
 *
 * @example
 * rememberTotals(state, await myPlaylists(state, range, signal));
 */
export function rememberTotals(state: SpotifyState, playlists: readonly ApiPlaylist[]): void {
  for (const p of playlists) rememberTotal(state, p.id, (p.items ?? p.tracks)?.total);
}

/**
 * The last known number of items of a playlist, if any.
 *
 * @example
 * const predicted = knownTotal(state, id);
 */
export function knownTotal(state: SpotifyState, id: string): number | undefined {
  return seen.get(state)?.get(id);
}

/**
 * Forgets every total (benchmarks measure a first read with it).
 *
 * @example
 * forgetTotals(state);
 */
export function forgetTotals(state: SpotifyState): void {
  seen.delete(state);
}
