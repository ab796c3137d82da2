import { describe, expect, it } from 'vitest';
import { changesBetween } from '../../../src/plugins/music-mpd/changes.ts';
import { MpdConfig } from '../../../src/plugins/music-mpd/config.ts';
import {
  ackError,
  commandLine,
  parseAck,
  quoteArg,
} from '../../../src/plugins/music-mpd/protocol.ts';
import { toList, toObject, toObjects, toSongs } from '../../../src/plugins/music-mpd/shapes.ts';
import { parseResource, splitStreamTitle } from '../../../src/plugins/music-mpd/track.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';

// The MPD protocol's pieces (quoting, ACK lines, answers in python-mpd2's shapes), the events
// computed from two statuses, and the music.mpd section.

describe('music.mpd: quoting', () => {
  it('quotes every argument, escaping " and \\, so a hostile one stays one argument', () => {
    expect(quoteArg('x" ; clear')).toBe('"x\\" ; clear"');
    expect(quoteArg('a\\"b')).toBe('"a\\\\\\"b"');
    expect(commandLine(['add', 'Album/one.flac'])).toBe('add "Album/one.flac"');
    expect(commandLine(['move', 1, 2])).toBe('move "1" "2"');
  });

  it('refuses a line break, which would start another command', () => {
    expect(() => quoteArg('a\nclear')).toThrow(/line break/);
    expect(() => quoteArg('a\rclear')).toThrow(/line break/);
  });
});

describe("music.mpd: MPD's answers", () => {
  it('reads ACK lines, and makes errors that name the command and the message', () => {
    const ack = parseAck('ACK [50@1] {load} No such playlist');
    expect(ack).toEqual({ code: 50, index: 1, command: 'load', message: 'No such playlist' });
    expect(parseAck('OK')).toBeUndefined();
    const err = ackError(ack!);
    expect([err.code, err.message]).toEqual([
      'NOT_FOUND',
      'music.mpd: MPD refused "load": No such playlist (ACK 50)',
    ]);
    expect(ackError({ code: 2, index: 0, command: 'move', message: 'Bad song index' }).code).toBe(
      'INVALID_ARGUMENTS',
    );
    expect(ackError({ code: 56, index: 0, command: 'save', message: 'exists' }).code).toBe(
      'CONFLICT',
    );
    expect(ackError({ code: 4, index: 0, command: 'status', message: 'no' }).message).toMatch(
      /set music\.mpd\.password/,
    );
    expect(ackError({ code: 52, index: 0, command: 'play', message: 'x' }).code).toBe(
      'ACTION_FAILED',
    );
  });

  it('shapes answers as python-mpd2 does: lower-case keys, repeated keys as lists', () => {
    const lines = ['file: a.flac', 'Artist: A', 'Artist: B', 'Title: T', 'file: b.flac', 'Pos: 1'];
    expect(toSongs(lines)).toEqual([
      { file: 'a.flac', artist: ['A', 'B'], title: 'T' },
      { file: 'b.flac', pos: '1' },
    ]);
    expect(toObject(['volume: 40', 'state: play'])).toEqual({ volume: '40', state: 'play' });
    expect(toObject([])).toEqual({});
    expect(toList(['file: a', 'file: b'])).toEqual(['a', 'b']);
    expect(
      toObjects(
        ['directory: d', 'Last-Modified: x', 'file: f', 'playlist: p'],
        ['file', 'directory', 'playlist'],
      ),
    ).toEqual([{ directory: 'd', 'last-modified': 'x' }, { file: 'f' }, { playlist: 'p' }]);
  });

  it('splits a stream\'s "Artist - Title" and turns Spotify links into URIs, as Platypush does', () => {
    expect(splitStreamTitle({ file: 'http://radio/x', title: 'Elbow - Kindling' })).toEqual({
      file: 'http://radio/x',
      artist: 'Elbow',
      title: 'Kindling',
    });
    const song = { file: 'a.flac', artist: 'X', title: 'A - B' };
    expect(splitStreamTitle(song)).toEqual(song);
    expect(parseResource('https://open.spotify.com/track/7CO5?si=x')).toBe('spotify:track:7CO5');
    expect(parseResource('spotify:playlist:abc')).toBe('spotify:user:spotify:playlist:abc');
    expect(parseResource('Album/one.flac')).toBe('Album/one.flac');
  });
});

describe('music.mpd: events from two statuses', () => {
  const snap = (status: Record<string, string>, track: Record<string, string> = {}) => ({
    status: { state: 'stop', volume: '50', playlist: '1', random: '0', ...status },
    track,
  });
  const one = { file: 'a', id: '1', pos: '0' };

  it('a move of the playing track in the queue is not a new track; a play after a stop is', () => {
    const kinds = (a: ReturnType<typeof snap>, b: ReturnType<typeof snap>) =>
      changesBetween(a, b).map((c) => c.kind);
    expect(
      kinds(
        snap({ state: 'play' }, one),
        snap({ state: 'play', playlist: '2' }, { ...one, pos: '3' }),
      ),
    ).toEqual(['PlaylistChangeEvent']);
    expect(kinds(snap({ state: 'stop' }, one), snap({ state: 'play' }, one))).toEqual([
      'MusicPlayEvent',
      'NewPlayingTrackEvent',
    ]);
    expect(kinds(snap({ state: 'pause' }, one), snap({ state: 'play' }, one))).toEqual([
      'MusicPlayEvent',
    ]);
    expect(kinds(snap({}), snap({ volume: '60', random: '1' }))).toEqual([
      'VolumeChangeEvent',
      'PlaybackRandomModeChangeEvent',
    ]);
    expect(changesBetween(snap({}), snap({ volume: '60' }))[0]?.fields).toMatchObject({
      plugin_name: 'music.mpd',
      volume: 60,
    });
  });
});

describe('music.mpd: configuration', () => {
  it("takes Platypush's section as it is, with its defaults", () => {
    expect(MpdConfig.parse({ host: 'localhost', port: 6600, poll_interval: 5 })).toMatchObject({
      host: 'localhost',
      port: 6600,
      timeout: 10,
    });
    expect(MpdConfig.parse({})).toMatchObject({ host: 'localhost', port: 6600 });
    expect(MpdConfig.safeParse({ host: 'h', pasword: 'x' }).success).toBe(false);
  });

  it('a bad value stops the start, naming the key', async () => {
    const tmp = tempDir();
    try {
      await expect(
        makeApp('music.mpd:\n  host: 127.0.0.1\n  port: 70000\n', { dir: tmp.dir }),
      ).rejects.toThrow(/music\.mpd\.port/);
    } finally {
      tmp.cleanup();
    }
  });
});
