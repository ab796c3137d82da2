import { z } from '../../api/index.ts';
import type { MpdClient } from '../client.ts';
import { intArg, mpdAction, SongsResult, StatusResult } from '../params.ts';
import type { MpdCommand } from '../protocol.ts';
import { toList, toObjects, toSongs } from '../shapes.ts';
import { parseResource } from '../track.ts';

const name = (what = 'the stored playlist') => z.string().min(1).describe(what);

async function playlists(mpd: MpdClient, signal: AbortSignal) {
  const all = toObjects(await mpd.run(['listplaylists'], signal), ['playlist']);
  return all.sort((a, b) => String(a.playlist).localeCompare(String(b.playlist)));
}

async function playlist(mpd: MpdClient, pl: string, tracks: boolean, signal: AbortSignal) {
  return tracks
    ? toSongs(await mpd.run(['listplaylistinfo', pl], signal))
    : toList(await mpd.run(['listplaylist', pl], signal));
}

async function addTo(
  mpd: MpdClient,
  pl: string,
  resources: string | string[],
  signal: AbortSignal,
) {
  const list = Array.isArray(resources) ? resources : [resources];
  await mpd.list(
    list.map((r): MpdCommand => ['playlistadd', pl, parseResource(r)]),
    signal,
  );
  return null;
}

async function removeFrom(mpd: MpdClient, pl: string, positions: number[], signal: AbortSignal) {
  const order = [...new Set(positions)].sort((a, b) => b - a);
  await mpd.list(
    order.map((p): MpdCommand => ['playlistdelete', pl, p]),
    signal,
  );
  return null;
}

const moveArgs = {
  from_pos: intArg("the track's position now"),
  to_pos: intArg('its new position'),
};

async function moveIn(mpd: MpdClient, pl: string, from: number, to: number, signal: AbortSignal) {
  await mpd.run(['playlistmove', pl, from, to], signal);
  return null;
}

const positionsArg = z
  .union([
    intArg('a position in the playlist'),
    z.array(intArg('a position in the playlist')).min(1),
  ])
  .describe('a position (from 0) or a list of them');
const asList = (p: number | number[]) => (Array.isArray(p) ? p : [p]);
const resourcesArg = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .describe('a file, folder or URI, or a list of them');
const PlaylistsResult = z
  .array(z.record(z.string(), z.unknown()))
  .describe('[{playlist, "last-modified"}], by name');
const PlaylistResult = z
  .array(z.unknown())
  .describe('the files of the playlist; with with_tracks, its songs with their tags');

/** Stored playlists: list, read, load, save, edit. */
export const playlistActions = [
  mpdAction({
    name: 'get_playlists',
    summary: 'The stored playlists, by name.',
    params: {},
    result: PlaylistsResult,
    run: (_, { state, signal }) => playlists(state, signal),
  }),
  mpdAction({
    name: 'listplaylists',
    summary: "The stored playlists (Platypush's older name of get_playlists).",
    params: {},
    result: PlaylistsResult,
    run: (_, { state, signal }) => playlists(state, signal),
  }),
  mpdAction({
    name: 'get_playlist',
    summary: 'The files of a stored playlist (or its songs, with with_tracks).',
    params: {
      playlist: name(),
      with_tracks: z.boolean().default(false).describe('answer each song with its tags'),
    },
    result: PlaylistResult,
    run: ({ playlist: pl, with_tracks }, { state, signal }) =>
      playlist(state, pl, with_tracks, signal),
  }),
  mpdAction({
    name: 'listplaylist',
    summary: "The files of a stored playlist (Platypush's older name).",
    params: { name: name() },
    result: PlaylistResult,
    run: ({ name: pl }, { state, signal }) => playlist(state, pl, false, signal),
  }),
  mpdAction({
    name: 'listplaylistinfo',
    summary: "The songs of a stored playlist (Platypush's older name).",
    params: { name: name() },
    result: SongsResult,
    run: ({ name: pl }, { state, signal }) => playlist(state, pl, true, signal),
  }),
  mpdAction({
    name: 'load',
    summary: 'Appends a stored playlist to the queue, and plays unless told not to.',
    params: {
      playlist: name(),
      play: z.boolean().default(true).describe('start playing afterwards'),
    },
    result: StatusResult,
    run: ({ playlist: pl, play }, { state, signal }) =>
      state.thenStatus([['load', pl], ...(play ? [['play'] as MpdCommand] : [])], signal),
  }),
  mpdAction({
    name: 'save',
    summary: 'Saves the queue as a new stored playlist.',
    params: { name: name('the new playlist') },
    result: StatusResult,
    run: ({ name: pl }, { state, signal }) => state.thenStatus([['save', pl]], signal),
  }),
  mpdAction({
    name: 'rm',
    summary: 'Deletes stored playlists.',
    params: {
      playlist: z
        .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
        .describe('a playlist name, or a list of them'),
    },
    run: async ({ playlist: pl }, { state, signal }) => {
      await state.list(
        (Array.isArray(pl) ? pl : [pl]).map((p): MpdCommand => ['rm', p]),
        signal,
      );
      return null;
    },
  }),
  mpdAction({
    name: 'rename',
    summary: 'Renames a stored playlist.',
    params: { name: name(), new_name: name('its new name') },
    run: async ({ name: from, new_name }, { state, signal }) => {
      await state.run(['rename', from, new_name], signal);
      return null;
    },
  }),
  mpdAction({
    name: 'add_to_playlist',
    summary: 'Adds files or URIs to a stored playlist (made when it does not exist).',
    params: { playlist: name(), resources: resourcesArg },
    run: ({ playlist: pl, resources }, { state, signal }) => addTo(state, pl, resources, signal),
  }),
  mpdAction({
    name: 'playlistadd',
    summary: "Adds a file or URI to a stored playlist (Platypush's older name).",
    params: { name: name(), uri: z.string().min(1).describe('a file or URI') },
    run: ({ name: pl, uri }, { state, signal }) => addTo(state, pl, uri, signal),
  }),
  mpdAction({
    name: 'remove_from_playlist',
    summary: 'Removes tracks at positions of a stored playlist.',
    params: { playlist: name(), resources: positionsArg },
    run: ({ playlist: pl, resources }, { state, signal }) =>
      removeFrom(state, pl, asList(resources), signal),
  }),
  mpdAction({
    name: 'playlistdelete',
    summary: "Removes the track at a position of a stored playlist (Platypush's older name).",
    params: { name: name(), pos: intArg('a position in the playlist') },
    run: ({ name: pl, pos }, { state, signal }) => removeFrom(state, pl, [pos], signal),
  }),
  mpdAction({
    name: 'playlist_move',
    summary: 'Moves a track within a stored playlist.',
    params: { playlist: name(), ...moveArgs },
    run: ({ playlist: pl, from_pos, to_pos }, { state, signal }) =>
      moveIn(state, pl, from_pos, to_pos, signal),
  }),
  mpdAction({
    name: 'playlistmove',
    summary: "Moves a track within a stored playlist (Platypush's older name).",
    params: { name: name(), ...moveArgs },
    run: ({ name: pl, from_pos, to_pos }, { state, signal }) =>
      moveIn(state, pl, from_pos, to_pos, signal),
  }),
  mpdAction({
    name: 'playlistclear',
    summary: 'Empties a stored playlist.',
    params: { name: name() },
    run: async ({ name: pl }, { state, signal }) => {
      await state.run(['playlistclear', pl], signal);
      return null;
    },
  }),
  mpdAction({
    name: 'searchaddplaylist',
    summary:
      'Replaces the queue with the first stored playlist whose name holds a text, and plays it.',
    params: { name: z.string().min(1).describe('part of the playlist name (any case)') },
    result: z.object({ playlist: z.string() }).nullable().describe('the playlist loaded, or null'),
    run: async ({ name: part }, { state, signal }) => {
      const found = (await playlists(state, signal))
        .map((p) => String(p.playlist))
        .find((p) => p.toLowerCase().includes(part.toLowerCase()));
      if (!found) return null;
      await state.list([['clear'], ['load', found], ['play']], signal);
      return { playlist: found };
    },
  }),
];
