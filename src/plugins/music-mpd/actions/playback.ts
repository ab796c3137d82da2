import { setTimeout as delay } from 'node:timers/promises';
import { PipitError, z } from '../../api/index.ts';
import type { MpdClient } from '../client.ts';
import { intArg, mpdAction, StatusResult } from '../params.ts';
import { compareVersions } from '../protocol.ts';
import type { MpdAck, MpdArg, MpdCommand } from '../protocol.ts';
import { parseResource } from '../track.ts';

/** `add` with a position works for folders too since MPD 0.23.3; before, `addid` (songs only). */
export function addAt(mpd: MpdClient, uri: string, position: number): MpdCommand {
  return compareVersions(mpd.version ?? '0', '0.23.3') >= 0
    ? ['add', uri, position]
    : ['addid', uri, position];
}

const simple = (name: string, command: string, summary: string) =>
  mpdAction({
    name,
    summary,
    params: {},
    result: StatusResult,
    run: (_, { state, signal }) => state.thenStatus([[command]], signal),
  });

/** When the state is one of `states`, runs `command` and answers the status; else null. */
const when = (name: string, states: string[], command: MpdCommand, summary: string) =>
  mpdAction({
    name,
    summary,
    params: {},
    result: StatusResult.nullable(),
    run: async (_, { state, signal }) => {
      const now = (await state.status(signal)).state;
      return states.includes(String(now)) ? state.thenStatus([command], signal) : null;
    },
  });

const play = mpdAction({
  name: 'play',
  summary: 'Plays; with a resource, puts it first in the queue and plays it.',
  description:
    'music.mpd.play {resource: "Album/track.flac"} adds the file, folder or URI at position 0 and plays it; without one, plays the queue.',
  params: {
    resource: z
      .string()
      .min(1)
      .optional()
      .describe('a file or folder of the music directory, or a URI (http://, spotify: on Mopidy)'),
  },
  result: StatusResult,
  run: ({ resource }, { state, signal }) =>
    state.thenStatus(
      resource ? [addAt(state, parseResource(resource), 0), ['play', 0]] : [['play']],
      signal,
    ),
});

const playPos = mpdAction({
  name: 'play_pos',
  summary: 'Plays the track at a position of the queue.',
  params: { pos: intArg('queue position, from 0') },
  result: StatusResult,
  run: ({ pos }, { state, signal }) => state.thenStatus([['play', pos]], signal),
});

const playId = mpdAction({
  name: 'playid',
  summary: 'Plays the track of a queue id.',
  params: { track_id: intArg("the track's id in the queue (its `id` field)") },
  result: StatusResult,
  run: ({ track_id }, { state, signal }) => state.thenStatus([['playid', track_id]], signal),
});

const pause = mpdAction({
  name: 'pause',
  summary: 'Pauses when playing, plays otherwise (a toggle, as in Platypush).',
  params: {},
  result: StatusResult,
  run: async (_, { state, signal }) => {
    const playing = (await state.status(signal)).state === 'play';
    return state.thenStatus([playing ? ['pause', 1] : ['play']], signal);
  },
});

const playOrStop = mpdAction({
  name: 'play_or_stop',
  summary: 'Stops when playing, plays otherwise.',
  params: {},
  result: StatusResult,
  run: async (_, { state, signal }) => {
    const playing = (await state.status(signal)).state === 'play';
    return state.thenStatus([[playing ? 'stop' : 'play']], signal);
  },
});

const seekPosition = z
  .union([
    z.number().min(0),
    z.string().regex(/^[+-]?\d+(\.\d+)?$/, 'is not seconds, nor +N / -N seconds'),
  ])
  .describe('seconds from the start, or "+15" / "-15" to move from where it is');

/**
 * Seeks; right after a play MPD says "Not seekable" until its decoder has started the track (the
 * status has no `audio` yet), so that case is tried again for up to a second.
 */
async function seekTo(mpd: MpdClient, position: MpdArg, signal: AbortSignal) {
  const until = Date.now() + 1000;
  for (;;) {
    try {
      return await mpd.thenStatus([['seekcur', position]], signal);
    } catch (err) {
      const ack = err instanceof PipitError ? (err.details.ack as MpdAck | undefined) : undefined;
      if (ack?.message !== 'Not seekable' || Date.now() > until) throw err;
      const status = await mpd.status(signal);
      if (status.state !== 'play' || status.audio !== undefined) throw err;
      await delay(20, undefined, { signal });
    }
  }
}

const seek = mpdAction({
  name: 'seek',
  summary: 'Seeks in the current track.',
  params: { position: seekPosition },
  result: StatusResult,
  run: ({ position }, { state, signal }) => seekTo(state, position, signal),
});

const seekcur = mpdAction({
  name: 'seekcur',
  summary: "Seeks in the current track (Platypush's older name of seek).",
  params: { value: seekPosition },
  result: StatusResult,
  run: ({ value }, { state, signal }) => seekTo(state, value, signal),
});

/** Playback: play, pause, stop, next, previous, seek and their Platypush variants. */
export const playbackActions = [
  play,
  playPos,
  playId,
  pause,
  when('pause_if_playing', ['play'], ['pause', 1], 'Pauses only when playing; null otherwise.'),
  when('play_if_paused', ['pause'], ['play'], 'Plays only when paused (resumes); null otherwise.'),
  when(
    'play_if_paused_or_stopped',
    ['pause', 'stop'],
    ['play'],
    'Plays only when paused or stopped; null otherwise.',
  ),
  simple('stop', 'stop', 'Stops playback.'),
  playOrStop,
  simple('next', 'next', 'Plays the next track of the queue.'),
  simple('previous', 'previous', 'Plays the previous track of the queue.'),
  seek,
  seekcur,
  mpdAction({
    name: 'forward',
    summary: 'Goes forward 15 seconds.',
    params: {},
    result: StatusResult,
    run: (_, { state, signal }) => seekTo(state, '+15', signal),
  }),
  mpdAction({
    name: 'back',
    summary: 'Goes back 15 seconds.',
    params: {},
    result: StatusResult,
    run: (_, { state, signal }) => seekTo(state, '-15', signal),
  }),
];
