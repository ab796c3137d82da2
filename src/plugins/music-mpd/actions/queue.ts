import { z } from '../../api/index.ts';
import { intArg, mpdAction, SongsResult, StatusResult } from '../params.ts';
import type { MpdCommand } from '../protocol.ts';
import { toSongs } from '../shapes.ts';
import { parseResource } from '../track.ts';
import { addAt } from './playback.ts';

const TrackResult = z
  .record(z.string(), z.unknown())
  .describe(
    'the current track: file, artist, title, album, time, duration, pos, id... ({} when none)',
  );

const status = mpdAction({
  name: 'status',
  summary: "The player's status.",
  description:
    'MPD\'s status as Platypush answers it, values as strings: {"volume": "40", "repeat": "0", "random": "0", "single": "0", "consume": "0", "playlist": "52", "playlistlength": "14", "state": "play", "song": "9", "songid": "3061", "time": "161:255", "elapsed": "161.967", "duration": "255.000", "bitrate": "320", ...}',
  params: {},
  result: StatusResult,
  run: (_, { state, signal }) => state.status(signal),
});

const currentTrack = (name: string, summary: string) =>
  mpdAction({
    name,
    summary,
    params: {},
    result: TrackResult,
    run: (_, { state, signal }) => state.currentTrack(signal),
  });

const add = mpdAction({
  name: 'add',
  summary: 'Adds files, folders or URIs to the queue (at the end, or at a position).',
  description:
    'Several resources are added in their order (Platypush inserts them at one position, reversed), in one command list.',
  params: {
    resource: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .describe('a file or folder of the music directory, or a URI; or a list of them'),
    position: intArg('where in the queue (default: the end)').optional(),
  },
  result: StatusResult,
  run: ({ resource, position }, { state, signal }) => {
    const uris = (Array.isArray(resource) ? resource : [resource]).map(parseResource);
    const commands: MpdCommand[] = uris.map((uri, i) =>
      position === undefined ? ['add', uri] : addAt(state, uri, position + i),
    );
    return state.thenStatus(commands, signal);
  },
});

const del = mpdAction({
  name: 'delete',
  summary: 'Removes the tracks at these positions of the queue; answers the queue.',
  params: {
    positions: z
      .array(intArg('a queue position'))
      .min(1)
      .describe('the positions to remove (from 0)'),
  },
  result: SongsResult,
  run: async ({ positions }, { state, signal }) => {
    // From the last, so that each position still names the track it did.
    const order = [...new Set(positions)].sort((a, b) => b - a);
    const answers = await state.list(
      [...order.map((p): MpdCommand => ['delete', p]), ['playlistinfo']],
      signal,
    );
    return toSongs(answers.at(-1)!);
  },
});

const move = mpdAction({
  name: 'move',
  summary: 'Moves a track of the queue to another position.',
  params: {
    from_pos: intArg("the track's position now"),
    to_pos: intArg('its new position'),
  },
  result: StatusResult,
  run: ({ from_pos, to_pos }, { state, signal }) =>
    state.thenStatus([['move', from_pos, to_pos]], signal),
});

/** The queue: status, the current track, adding, removing, moving, listing. */
export const queueActions = [
  status,
  currentTrack('current_track', 'The track playing (or paused, or next when stopped).'),
  currentTrack('currentsong', "The current track (Platypush's older name of current_track)."),
  add,
  del,
  move,
  mpdAction({
    name: 'clear',
    summary: 'Empties the queue.',
    params: {},
    result: StatusResult,
    run: (_, { state, signal }) => state.thenStatus([['clear']], signal),
  }),
  mpdAction({
    name: 'playlistinfo',
    summary: 'The tracks of the queue.',
    params: {},
    result: SongsResult,
    run: async (_, { state, signal }) => toSongs(await state.run(['playlistinfo'], signal)),
  }),
  mpdAction({
    name: 'plchanges',
    summary: 'The tracks of the queue changed since a version of it (status.playlist).',
    params: { version: intArg('a version of the queue (the `playlist` field of the status)') },
    result: SongsResult,
    run: async ({ version }, { state, signal }) =>
      toSongs(await state.run(['plchanges', version], signal)),
  }),
];
