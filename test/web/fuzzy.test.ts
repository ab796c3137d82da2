import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from '../../web/src/lib/fuzzy.ts';

// A catalog shaped like the real one, with the Spotify plugin that arrives later.
const CATALOG = [
  'inspect.get_all_plugins',
  'inspect.get_procedures',
  'logger.info',
  'music.spotify.add_to_playlist',
  'music.spotify.get_playlists',
  'music.spotify.pause',
  'music.spotify.play',
  'music.spotify.play_if_paused',
  'music.spotify.playlist_move',
  'music.spotify.previous',
  'music.spotify.set_volume',
  'music.spotify.status',
  'procedure.morning',
  'utils.echo',
  'utils.sleep',
  'variable.get',
  'variable.list',
  'variable.set',
];

const top = (query: string, n = 1) =>
  fuzzyFilter(query, CATALOG, (s) => s)
    .slice(0, n)
    .map((m) => m.text);

describe('fuzzy matching of action names', () => {
  it('finds music.spotify.play first for "spot pl"', () => {
    expect(top('spot pl')).toEqual(['music.spotify.play']);
    expect(top('spot pl', 3)).toContain('music.spotify.playlist_move');
  });

  it('prefers segment starts and contiguous runs over scattered letters', () => {
    expect(top('ut sle')).toEqual(['utils.sleep']);
    expect(top('var set')).toEqual(['variable.set']);
    expect(top('vol')).toEqual(['music.spotify.set_volume']);
    expect(top('echo')).toEqual(['utils.echo']);
    expect(top('proc morn')).toEqual(['procedure.morning']);
  });

  it('matches initials and abbreviations as subsequences', () => {
    expect(top('sp pif')).toEqual(['music.spotify.play_if_paused']);
    expect(top('insp procs')).toEqual(['inspect.get_procedures']);
  });

  it('is case-insensitive and puts an exact name first', () => {
    expect(top('Utils.Echo')).toEqual(['utils.echo']);
    expect(top('music.spotify.play')).toEqual(['music.spotify.play']);
  });

  it('drops names where a token does not match, and keeps all for an empty query', () => {
    expect(fuzzyFilter('spot zzz', CATALOG, (s) => s)).toEqual([]);
    expect(fuzzyScore('xyz', 'utils.echo')).toBeNull();
    const all = fuzzyFilter('  ', CATALOG, (s) => s).map((m) => m.text);
    expect(all).toEqual([...CATALOG].sort());
  });

  it('reports the matched positions for highlighting', () => {
    expect(fuzzyScore('ut sle', 'utils.sleep')?.positions).toEqual([0, 1, 6, 7, 8]);
    expect(fuzzyScore('spot pl', 'music.spotify.play')?.positions).toEqual([6, 7, 8, 9, 14, 15]);
  });

  it('respects the limit', () => {
    expect(fuzzyFilter('', CATALOG, (s) => s, 5)).toHaveLength(5);
  });
});
