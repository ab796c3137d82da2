import type { MpdObject } from './shapes.ts';
import { sameTrack } from './track.ts';

/** What the events are computed from: MPD's `status` and the current track. */
export interface Snapshot {
  status: MpdObject;
  track: MpdObject;
}

/** One event to raise: its kind (the last word) and fields. */
export interface Change {
  kind: string;
  fields: Record<string, unknown>;
}

const STATE_EVENTS: Record<string, string> = {
  play: 'MusicPlayEvent',
  pause: 'MusicPauseEvent',
  stop: 'MusicStopEvent',
};

const MODE_EVENTS = [
  ['random', 'PlaybackRandomModeChangeEvent'],
  ['repeat', 'PlaybackRepeatModeChangeEvent'],
  ['consume', 'PlaybackConsumeModeChangeEvent'],
  ['single', 'PlaybackSingleModeChangeEvent'],
] as const;

/**
 * The events between two snapshots, in Platypush's order (its MPD listener's): the play state,
 * the queue, a new track, the volume, then the modes. Unlike Platypush, a track counts as new by
 * its queue id and file (moving it in the queue is not a new track), and starting again after a
 * stop is a new play of it.
 *
 * @example
 * changesBetween(
 *   { status: { state: 'pause', volume: '40' }, track: { file: 'a', id: '1' } },
 *   { status: { state: 'play', volume: '40' }, track: { file: 'a', id: '1' } },
 * ).map((c) => c.kind); // ['MusicPlayEvent']
 */
export function changesBetween(prev: Snapshot, next: Snapshot): Change[] {
  const base = { plugin_name: 'music.mpd', status: next.status, track: next.track };
  const out: Change[] = [];
  const was = prev.status;
  const now = next.status;
  const state = typeof now.state === 'string' ? now.state : '';
  if (state !== was.state && STATE_EVENTS[state])
    out.push({ kind: STATE_EVENTS[state], fields: base });
  if (now.playlist !== was.playlist)
    out.push({ kind: 'PlaylistChangeEvent', fields: { ...base, changes: null } });
  if (state === 'play' && (!sameTrack(prev.track, next.track) || was.state === 'stop'))
    out.push({ kind: 'NewPlayingTrackEvent', fields: base });
  const volume = Number(now.volume);
  if (now.volume !== undefined && now.volume !== was.volume && Number.isInteger(volume))
    out.push({ kind: 'VolumeChangeEvent', fields: { ...base, volume } });
  for (const [key, kind] of MODE_EVENTS)
    if (now[key] !== undefined && now[key] !== was[key])
      // `single` may be "oneshot" (MPD 0.21): on, too.
      out.push({ kind, fields: { ...base, state: now[key] !== '0' } });
  return out;
}
