import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from '../call.ts';
import { codeOf, mpdApp } from './helpers.ts';
import type { MpdApp } from './helpers.ts';
import { LIBRARY, startMpd } from './mpd-server.ts';
import type { MpdServer } from './mpd-server.ts';

// music.mpd's actions against a real MPD: its queue, playback, volume, modes, stored playlists and
// library, with Platypush's names and answers, and MPD's refusals as errors.

const HOOKS = `
event.hook.MpdNewTrack:
  if: {type: NewPlayingTrackEvent}
  then:
    - action: variable.set
      args:
        mpd_now_playing: \${track['title']}
event.hook.MpdPaused:
  if: {type: platypush.message.event.music.MusicPauseEvent}
  then:
    - action: variable.set
      args:
        mpd_paused: \${track['title']}
event.hook.MpdVolume:
  if: {type: VolumeChangeEvent, plugin_name: music.mpd}
  then:
    - action: variable.set
      args:
        mpd_volume: \${volume}
# Platypush's README example, as it is.
event.hook.SearchSongVoiceCommand:
  if:
    type: platypush.message.event.assistant.SpeechRecognizedEvent
    phrase: "play \${title} by \${artist}"
  then:
    - action: music.mpd.clear
    - action: music.mpd.search
      args:
        filter:
          artist: \${artist}
          title: \${title}
    - if \${len(output)}:
      - action: music.mpd.play
        args:
          resource: \${output[0]['file']}
`;

let mpd: MpdServer;
let a: MpdApp;
const run = async (action: string, args: Record<string, unknown> = {}) => {
  const res = await call(a.t, `music.mpd.${action}`, args);
  expect(res.errors.join(), `${action} failed`).toBe('');
  return res.output as Record<string, unknown> & Array<Record<string, unknown>>;
};
const files = async () => (await run('playlistinfo')).map((s) => s.file);
const kinds = () => a.events.map((e) => e.kind);
const [ONE, TWO, THREE, ODD] = LIBRARY;

beforeAll(async () => {
  mpd = await startMpd();
  a = await mpdApp({ host: '127.0.0.1', port: mpd.port }, { yaml: HOOKS });
});
afterAll(async () => {
  await a?.t.close();
  await mpd?.stop();
});

describe('music.mpd: status and the queue', () => {
  it("answers the status with Platypush's fields, as MPD's strings", async () => {
    expect(a.link()).toEqual({
      connected: true,
      detail: expect.stringMatching(/^MPD 127\.0\.0\.1:\d+ connected \(protocol 0\.\d+/),
    });
    expect(await run('status')).toMatchObject({
      state: 'stop',
      volume: '100',
      random: '0',
      repeat: '0',
      single: '0',
      consume: '0',
      playlist: expect.stringMatching(/^\d+$/),
      playlistlength: '0',
    });
    expect(await run('current_track')).toEqual({});
    // The first status is the baseline: unlike Platypush, nothing is raised for it.
    expect(a.events).toEqual([]);
  });

  it('adds a folder, then files at a position, and lists the queue with their tags', async () => {
    expect((await run('add', { resource: 'Album One' })).playlistlength).toBe('2');
    const added = await run('add', { resource: [THREE!.file, ODD!.file], position: 0 });
    expect(added.playlistlength).toBe('4');
    const queue = await run('playlistinfo');
    expect(queue.map((s) => s.file)).toEqual([THREE!.file, ODD!.file, ONE!.file, TWO!.file]);
    expect(queue[2]).toEqual({
      file: ONE!.file,
      artist: 'The Testers',
      title: 'First Song',
      album: 'Album One',
      track: '1',
      time: '60',
      duration: '60.000',
      pos: '2',
      id: expect.stringMatching(/^\d+$/),
      'last-modified': expect.any(String),
      format: expect.any(String),
    });
    await vi.waitFor(() => expect(kinds()).toContain('PlaylistChangeEvent'));
    expect(a.events.find((e) => e.kind === 'PlaylistChangeEvent')?.args).toMatchObject({
      plugin_name: 'music.mpd',
      changes: null,
      status: expect.objectContaining({ state: 'stop' }),
    });
  });

  it('moves tracks; delete removes positions (as strings too) and answers the queue', async () => {
    await run('move', { from_pos: 0, to_pos: 3 });
    expect(await files()).toEqual([ODD!.file, ONE!.file, TWO!.file, THREE!.file]);
    const left = await run('delete', { positions: ['0', 3] });
    expect(left.map((s) => s.file)).toEqual([ONE!.file, TWO!.file]);
  });

  it('sends a hostile resource as one quoted argument: x" ; clear is a missing file, the queue stays', async () => {
    const res = await call(a.t, 'music.mpd.add', { resource: 'x" ; clear' });
    expect(codeOf(res)).toBe('NOT_FOUND');
    expect(res.errors[0]).toMatch(/MPD refused "add": No such directory/);
    expect(await files()).toEqual([ONE!.file, TWO!.file]);
    // A file whose name really holds a quote and a semicolon is added as it is.
    await run('add', { resource: ODD!.file });
    expect(await files()).toEqual([ONE!.file, TWO!.file, ODD!.file]);
    const newline = await call(a.t, 'music.mpd.add', { resource: 'a\nclear' });
    expect(codeOf(newline)).toBe('INVALID_ARGUMENTS');
    expect(newline.errors[0]).toMatch(/line break/);
    expect(await files()).toHaveLength(3);
    await run('delete', { positions: [2] });
  });

  it("answers MPD's refusals as errors naming the command and MPD's message", async () => {
    const res = await call(a.t, 'music.mpd.move', { from_pos: 99, to_pos: 0 });
    expect(codeOf(res)).toBe('INVALID_ARGUMENTS');
    expect(res.errors[0]).toMatch(/music\.mpd: MPD refused "move": Bad song index \(ACK 2\)/);
    const bad = await call(a.t, 'music.mpd.set_volume', { volume: 150 });
    expect(bad.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('music.mpd: playback and its events', () => {
  it('plays, pauses, resumes and stops; the events reach hooks', async () => {
    expect((await run('play')).state).toBe('play');
    expect(await run('current_track')).toMatchObject({ title: 'First Song', pos: '0' });
    await vi.waitFor(() => expect(a.variable('mpd_now_playing')).toBe('First Song'));
    expect(a.events.find((e) => e.kind === 'MusicPlayEvent')?.args).toMatchObject({
      plugin_name: 'music.mpd',
      status: expect.objectContaining({ state: 'play' }),
      track: expect.objectContaining({ title: 'First Song', file: ONE!.file }),
    });
    expect((await run('pause')).state).toBe('pause');
    await vi.waitFor(() => expect(a.variable('mpd_paused')).toBe('First Song'));
    // Nothing to do: no output, which Pipit answers as {success: true}.
    expect((await call(a.t, 'music.mpd.pause_if_playing')).output).toEqual({ success: true });
    expect((await run('status')).state).toBe('pause');
    expect((await run('play_if_paused')).state).toBe('play');
    expect((await run('stop')).state).toBe('stop');
    await vi.waitFor(() => expect(kinds().at(-1)).toBe('MusicStopEvent'));
    expect(await run('play_if_paused_or_stopped')).toMatchObject({ state: 'play' });
  });

  it('next and previous move through the queue, each a new playing track', async () => {
    await run('next');
    await vi.waitFor(() => expect(a.variable('mpd_now_playing')).toBe('Second "Quoted" Song'));
    expect((await run('current_track')).title).toBe('Second "Quoted" Song');
    await run('previous');
    await vi.waitFor(() => expect(a.variable('mpd_now_playing')).toBe('First Song'));
    const second = (await run('playlistinfo'))[1]!;
    expect((await run('playid', { track_id: second.id })).songid).toBe(second.id);
    expect((await run('play_pos', { pos: 0 })).song).toBe('0');
  });

  it('seeks to a second, and by +N / -N seconds', async () => {
    expect(Number((await run('seek', { position: 30 })).elapsed)).toBeGreaterThanOrEqual(30);
    const back = Number((await run('seek', { position: '-10' })).elapsed);
    expect(back).toBeGreaterThanOrEqual(19);
    expect(back).toBeLessThan(30);
    expect(Number((await run('forward')).elapsed)).toBeGreaterThanOrEqual(back + 15);
  });

  it('sets and steps the volume, raising VolumeChangeEvent', async () => {
    expect((await run('set_volume', { volume: 40 })).volume).toBe('40');
    await vi.waitFor(() => expect(a.variable('mpd_volume')).toBe(40));
    expect((await run('volup')).volume).toBe('45');
    expect((await run('voldown', { step: 10 })).volume).toBe('35');
    expect((await run('setvol', { vol: 60 })).volume).toBe('60');
    await vi.waitFor(() => expect(a.variable('mpd_volume')).toBe(60));
    expect((await run('volume', { vol: 50 })).volume).toBe('50');
    await vi.waitFor(() => expect(a.variable('mpd_volume')).toBe(50));
  });

  it('sets and flips random and repeat (Platypush never flips them off), raising the mode events', async () => {
    expect((await run('random', { value: true })).random).toBe('1');
    expect((await run('random')).random).toBe('0');
    expect((await run('repeat')).repeat).toBe('1');
    expect((await run('repeat', { value: false })).repeat).toBe('0');
    await vi.waitFor(() =>
      expect(
        a.events.filter((e) => e.kind === 'PlaybackRandomModeChangeEvent').map((e) => e.args.state),
      ).toEqual([true, false]),
    );
  });
});

describe('music.mpd: stored playlists and the library', () => {
  const NAME = 'Mix "A" \\ B';

  it('saves the queue, lists and reads stored playlists', async () => {
    await run('save', { name: NAME });
    expect(await run('get_playlists')).toEqual([
      { playlist: NAME, 'last-modified': expect.any(String) },
    ]);
    expect(await run('get_playlist', { playlist: NAME })).toEqual([ONE!.file, TWO!.file]);
    const songs = await run('get_playlist', { playlist: NAME, with_tracks: true });
    expect(songs.map((s) => s.title)).toEqual(['First Song', 'Second "Quoted" Song']);
    const again = await call(a.t, 'music.mpd.save', { name: NAME });
    expect(codeOf(again)).toBe('CONFLICT');
    expect(again.errors[0]).toMatch(/MPD refused "save": Playlist already exists/);
  });

  it('edits a stored playlist, then loads it into an empty queue and plays it', async () => {
    await run('add_to_playlist', { playlist: NAME, resources: [THREE!.file] });
    await run('playlist_move', { playlist: NAME, from_pos: 2, to_pos: 0 });
    await run('remove_from_playlist', { playlist: NAME, resources: 2 });
    expect(await run('get_playlist', { playlist: NAME })).toEqual([THREE!.file, ONE!.file]);
    expect((await run('clear')).playlistlength).toBe('0');
    const loaded = await run('load', { playlist: NAME });
    expect(loaded).toMatchObject({ playlistlength: '2', state: 'play' });
    expect(await files()).toEqual([THREE!.file, ONE!.file]);
    await run('rename', { name: NAME, new_name: 'other' });
    await run('rm', { playlist: 'other' });
    expect(await run('get_playlists')).toEqual([]);
    const missing = await call(a.t, 'music.mpd.load', { playlist: NAME });
    expect(codeOf(missing)).toBe('NOT_FOUND');
    expect(missing.errors[0]).toMatch(/MPD refused "load": No such playlist/);
  });

  it('searches (any case, partial) and finds (exact) by tags, text or filter expression', async () => {
    const titles = (songs: Array<Record<string, unknown>>) => songs.map((s) => s.title).sort();
    expect(titles(await run('search', { filter: { artist: 'testers' } }))).toEqual([
      'First Song',
      'Second "Quoted" Song',
    ]);
    expect(titles(await run('search', { query: 'THIRD' }))).toEqual(['Third Song']);
    expect(titles(await run('search', { query: { album: 'odd' } }))).toEqual(['Quote']);
    expect(await run('find', { filter: { artist: 'testers' } })).toEqual([]);
    expect(
      titles(await run('find', { filter: { artist: 'The Testers', album: 'Album One' } })),
    ).toEqual(['First Song', 'Second "Quoted" Song']);
    expect(titles(await run('find', { filter: `(artist == "Odd \\\\ Names")` }))).toEqual([
      'Quote',
    ]);
    const none = await call(a.t, 'music.mpd.search', {});
    expect(none.code).toBe('ACTION_FAILED');
    expect(codeOf(none)).toBe('INVALID_ARGUMENTS');
  });

  it('browses the library by folder', async () => {
    const top = await run('lsinfo');
    expect(top.map((e) => e.directory ?? e.file)).toEqual(
      expect.arrayContaining(['Album One', 'odd', THREE!.file]),
    );
    expect((await run('lsinfo', { uri: 'Album One' })).map((e) => e.file)).toEqual([
      ONE!.file,
      TWO!.file,
    ]);
    expect((await run('browse', { path: 'Album One' })).map((e) => e.file)).toEqual([
      ONE!.file,
      TWO!.file,
    ]);
    expect(await run('browse')).toEqual(top);
  });
});

describe("music.mpd: Platypush's other actions and older names", () => {
  it('consume, single, shuffle, play_or_stop, back, seekcur and plchanges', async () => {
    await run('clear');
    const version = Number((await run('status')).playlist);
    await run('findadd', { filter: { album: 'Album One' } });
    await run('searchadd', { filter: { title: 'third' } });
    expect((await run('plchanges', { version })).map((s) => s.file)).toEqual([
      ONE!.file,
      TWO!.file,
      THREE!.file,
    ]);
    expect((await run('consume', { value: true })).consume).toBe('1');
    expect((await run('consume')).consume).toBe('0');
    expect((await run('single', { value: true })).single).toBe('1');
    expect((await run('single')).single).toBe('0');
    expect((await run('shuffle')).playlistlength).toBe('3');
    expect((await run('play_or_stop')).state).toBe('play');
    expect(Number((await run('seekcur', { value: 40 })).elapsed)).toBeGreaterThanOrEqual(40);
    const back = Number((await run('back')).elapsed);
    expect(back).toBeGreaterThanOrEqual(25);
    expect(back).toBeLessThan(40);
    expect((await run('currentsong')).file).toBe((await run('current_track')).file);
    expect((await run('play_or_stop')).state).toBe('stop');
  });

  it('the older playlist names: listplaylists, listplaylist(info), playlistadd/delete/move/clear', async () => {
    await run('playlistadd', { name: 'old', uri: ONE!.file });
    await run('playlistadd', { name: 'old', uri: TWO!.file });
    await run('playlistmove', { name: 'old', from_pos: 1, to_pos: 0 });
    expect(await run('listplaylist', { name: 'old' })).toEqual([TWO!.file, ONE!.file]);
    expect((await run('listplaylistinfo', { name: 'old' })).map((s) => s.title)).toEqual([
      'Second "Quoted" Song',
      'First Song',
    ]);
    await run('playlistdelete', { name: 'old', pos: 0 });
    expect(await run('listplaylist', { name: 'old' })).toEqual([ONE!.file]);
    expect((await run('listplaylists')).map((p) => p.playlist)).toEqual(['old']);
    expect(await run('searchaddplaylist', { name: 'OL' })).toEqual({ playlist: 'old' });
    expect(await files()).toEqual([ONE!.file]);
    expect((await run('status')).state).toBe('play');
    await run('playlistclear', { name: 'old' });
    expect(await run('listplaylist', { name: 'old' })).toEqual([]);
    await run('stop');
  });
});

describe("music.mpd: Platypush's README example", () => {
  it('a spoken "play <title> by <artist>" searches the library and plays what it finds', async () => {
    await run('stop');
    // As a voice assistant plugin raises it.
    await a.t.service.events.emit('platypush.message.event.assistant.SpeechRecognizedEvent', {
      phrase: 'play third song by other artist',
    });
    await vi.waitFor(async () =>
      expect(await run('current_track')).toMatchObject({ title: 'Third Song', pos: '0' }),
    );
    expect((await run('status')).state).toBe('play');
    await run('stop');
  });
});
