import { PipitError, z } from '../../api/index.ts';
import type { MpdClient } from '../client.ts';
import { intArg, isOn, mpdAction, StatusResult, toggleArg } from '../params.ts';

const volumeArg = (what: string) => intArg(what).pipe(z.number().int().max(100));

async function setVolume(mpd: MpdClient, volume: number, signal: AbortSignal) {
  return mpd.thenStatus([['setvol', volume]], signal);
}

/** Moves the volume by `delta`, within 0-100. MPD without a mixer says volume -1: an error. */
async function stepVolume(mpd: MpdClient, delta: number, signal: AbortSignal) {
  const volume = Number((await mpd.status(signal)).volume);
  if (!Number.isInteger(volume) || volume < 0)
    throw new PipitError(
      'ACTION_FAILED',
      `music.mpd: MPD at ${mpd.where} has no volume control (volume ${volume}): give its audio_output a mixer_type`,
    );
  return setVolume(mpd, Math.max(0, Math.min(100, Math.round(volume + delta))), signal);
}

const stepParams = {
  step: z.number().positive().max(100).optional().describe('how much, in percent (default 5)'),
  delta: z.number().positive().max(100).optional().describe("Platypush's older name of step"),
};

/** A mode (random, repeat, consume, single): set, or flipped when no value is given. */
const mode = (name: 'random' | 'repeat' | 'consume' | 'single', what: string) =>
  mpdAction({
    name,
    summary: `Sets ${what}, or flips it.`,
    description:
      'Unlike Platypush (which reads MPD\'s "0" as true and never turns a mode off), a call without a value flips the mode.',
    params: { value: toggleArg },
    result: StatusResult,
    run: async ({ value }, { state, signal }) => {
      const on = value ?? !isOn(await state.status(signal), name);
      return state.thenStatus([[name, on ? 1 : 0]], signal);
    },
  });

/** Volume and the play modes. */
export const optionActions = [
  mpdAction({
    name: 'set_volume',
    summary: 'Sets the volume.',
    params: { volume: volumeArg('the volume, 0-100') },
    result: StatusResult,
    run: ({ volume }, { state, signal }) => setVolume(state, volume, signal),
  }),
  mpdAction({
    name: 'setvol',
    summary: "Sets the volume (Platypush's older name of set_volume).",
    params: { vol: volumeArg('the volume, 0-100') },
    result: StatusResult,
    run: ({ vol }, { state, signal }) => setVolume(state, vol, signal),
  }),
  mpdAction({
    name: 'volume',
    summary: "Sets the volume (the name Platypush's music plugins share, as music.spotify.volume).",
    params: { vol: volumeArg('the volume, 0-100') },
    result: StatusResult,
    run: ({ vol }, { state, signal }) => setVolume(state, vol, signal),
  }),
  mpdAction({
    name: 'volup',
    summary: 'Turns the volume up (by 5 unless told).',
    params: stepParams,
    result: StatusResult,
    run: ({ step, delta }, { state, signal }) => stepVolume(state, step ?? delta ?? 5, signal),
  }),
  mpdAction({
    name: 'voldown',
    summary: 'Turns the volume down (by 5 unless told).',
    params: stepParams,
    result: StatusResult,
    run: ({ step, delta }, { state, signal }) => stepVolume(state, -(step ?? delta ?? 5), signal),
  }),
  mode('random', 'random order'),
  mode('repeat', 'repeating the queue'),
  mode('consume', 'consume mode (a played track leaves the queue)'),
  mode('single', 'single mode (stop after the current track)'),
  mpdAction({
    name: 'shuffle',
    summary: 'Shuffles the queue.',
    params: {},
    result: StatusResult,
    run: (_, { state, signal }) => state.thenStatus([['shuffle']], signal),
  }),
];
