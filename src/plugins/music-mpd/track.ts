import type { MpdObject } from './shapes.ts';

/**
 * The current track as Platypush's `current_track` gives it: MPD's `currentsong`, with a radio
 * stream's "Artist - Title" title split in two when the stream names no artist.
 *
 * @example
 * splitStreamTitle({ file: 'http://radio/x', title: 'Elbow - Kindling' });
 * // { file: 'http://radio/x', title: 'Kindling', artist: 'Elbow' }
 */
export function splitStreamTitle(track: MpdObject): MpdObject {
  const title = track.title;
  const file = typeof track.file === 'string' ? track.file : '';
  if (typeof title !== 'string') return track;
  if (track.artist && !/^https?:\/\//.test(file) && !file.startsWith('tunein:')) return track;
  const m = /^\s*(.+?)\s+-\s+(.*?)\s*$/.exec(title);
  return m?.[1] && m[2] ? { ...track, artist: m[1], title: m[2] } : track;
}

/**
 * A resource as Platypush passes it to MPD (for Mopidy's Spotify backend): an
 * open.spotify.com link becomes a `spotify:` URI, without its query string.
 *
 * @example
 * parseResource('https://open.spotify.com/track/7CO5ADlDN3DcR2pwlnB14P?si=x'); // 'spotify:track:7CO5ADlDN3DcR2pwlnB14P'
 */
export function parseResource(resource: string): string {
  let r = resource;
  const m = /^https?:\/\/open\.spotify\.com\/([^?]+)/.exec(r);
  if (m) r = `spotify:${m[1]!.replace(/\//g, ':')}`;
  if (r.startsWith('spotify:')) r = r.split('?')[0]!;
  const pl = /^spotify:playlist:(.*)$/.exec(r);
  return pl ? `spotify:user:spotify:playlist:${pl[1]}` : r;
}

/** Whether two tracks are one: same queue id and file (a move changes only `pos`). */
export function sameTrack(a: MpdObject | null, b: MpdObject | null): boolean {
  return (a?.id ?? null) === (b?.id ?? null) && (a?.file ?? null) === (b?.file ?? null);
}
