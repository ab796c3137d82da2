import { ApiError } from '../http.ts';
import { pageOf, pageParams } from '../paging.ts';
import type { Album, Track } from '../state/catalog.ts';
import type { Playlist } from '../state/playlists.ts';
import {
  renderArtist,
  renderShow,
  renderSimplifiedAlbum,
  renderSimplifiedEpisode,
  renderTrack,
} from '../state/render.ts';
import { contains, parseSearchQuery, wordsMatch, yearMatches } from '../search-query.ts';
import type { SearchQuery } from '../search-query.ts';
import { renderSimplifiedPlaylist } from './playlist-common.ts';
import type { ApiContext, ApiRoute } from './types.ts';
import { ok } from './types.ts';

const TYPES = ['album', 'artist', 'playlist', 'track', 'show', 'episode', 'audiobook'] as const;
type SearchType = (typeof TYPES)[number];
const OFFSET_CAP = 1000;
const DAY = 86_400_000;

const byPopularity = <T extends { popularity: number; id: string }>(a: T, b: T) =>
  b.popularity - a.popularity || a.id.localeCompare(b.id);

function artistNames(ctx: ApiContext, ids: string[]): string {
  return ids.map((id) => ctx.state.catalog.artists.get(id)!.name).join(' ');
}

function matchTracks(ctx: ApiContext, q: SearchQuery): Track[] {
  const { catalog } = ctx.state;
  return [...catalog.tracks.values()]
    .filter((t) => {
      const album = catalog.albums.get(t.albumId)!;
      const artists = artistNames(ctx, t.artistIds);
      const genres = t.artistIds.flatMap((id) => catalog.artists.get(id)!.genres).join(' ');
      return (
        wordsMatch(q.words, [t.name, artists, album.name]) &&
        contains(t.name, q.track) &&
        contains(artists, q.artist) &&
        contains(album.name, q.album) &&
        (q.isrc === undefined || t.isrc.toLowerCase() === q.isrc) &&
        contains(genres, q.genre) &&
        yearMatches(q, album.releaseDate)
      );
    })
    .sort(byPopularity);
}

function matchAlbums(ctx: ApiContext, q: SearchQuery): Album[] {
  return [...ctx.state.catalog.albums.values()]
    .filter((a) => {
      const artists = artistNames(ctx, a.artistIds);
      const released = Date.parse(a.releaseDate);
      const tagOk =
        q.tag === undefined ||
        (q.tag === 'new' && released >= ctx.now - 14 * DAY) ||
        (q.tag === 'hipster' && a.popularity <= 10);
      return (
        wordsMatch(q.words, [a.name, artists]) &&
        contains(artists, q.artist) &&
        contains(a.name, q.album) &&
        (q.upc === undefined || a.upc === q.upc) &&
        tagOk &&
        yearMatches(q, a.releaseDate)
      );
    })
    .sort(byPopularity);
}

function search(ctx: ApiContext) {
  const { query } = ctx.req;
  const q = query.get('q');
  if (q === null || q.trim() === '') throw new ApiError(400, 'No search query');
  const rawType = query.get('type');
  if (rawType === null || rawType === '') throw new ApiError(400, 'Missing parameter type');
  const types = rawType.split(',');
  for (const t of types)
    if (!(TYPES as readonly string[]).includes(t))
      throw new ApiError(400, `Bad search type field ${t}`);
  const market = query.get('market');
  if (market !== null && !/^([A-Z]{2}|from_token)$/.test(market))
    throw new ApiError(400, 'Invalid market code');
  const dev = ctx.state.config.mode === 'development';
  const { limit, offset } = pageParams(query, {
    defaultLimit: dev ? 5 : 20,
    maxLimit: dev ? 10 : 50,
    maxOffset: OFFSET_CAP,
  });
  // Observed answer when a page would reach past the cap (spotipy#868).
  if (offset + limit > OFFSET_CAP) throw new ApiError(400, 'Bad request.');
  const parsed = parseSearchQuery(q);
  const { catalog } = ctx.state;
  const render = ctx.state.render;
  const result: Record<string, unknown> = {};
  const page = <T>(list: T[], fn: (item: T) => unknown) =>
    pageOf(ctx.req, list, limit, offset, fn, '/v1/search');
  for (const type of types as SearchType[]) {
    const text = (...parts: string[]) => wordsMatch(parsed.words, parts);
    switch (type) {
      case 'track':
        result.tracks = page(matchTracks(ctx, parsed), (t) => renderTrack(render, t.id));
        break;
      case 'album':
        result.albums = page(matchAlbums(ctx, parsed), (a) => renderSimplifiedAlbum(render, a));
        break;
      case 'artist': {
        const artists = [...catalog.artists.values()]
          .filter(
            (a) =>
              text(a.name) &&
              contains(a.name, parsed.artist) &&
              contains(a.genres.join(' '), parsed.genre),
          )
          .sort(byPopularity);
        result.artists = page(artists, (a) => renderArtist(render, a.id));
        break;
      }
      case 'playlist': {
        const playlists = [...ctx.state.playlists.byId.values()].filter(
          (p: Playlist) =>
            p.public &&
            !ctx.state.playlists.spotifyOwned.has(p.id) &&
            text(p.name, p.description ?? ''),
        );
        result.playlists = page(playlists, (p) => renderSimplifiedPlaylist(ctx, p));
        break;
      }
      case 'show': {
        const shows = [...catalog.shows.values()].filter((s) =>
          text(s.name, s.publisher, s.description),
        );
        result.shows = page(shows, (s) => renderShow(render, s));
        break;
      }
      case 'episode': {
        const episodes = [...catalog.episodes.values()].filter((e) => text(e.name, e.description));
        result.episodes = page(episodes, (e) => renderSimplifiedEpisode(render, e));
        break;
      }
      case 'audiobook':
        result.audiobooks = page([], (x) => x);
        break;
    }
  }
  return ok(result);
}

/** `GET /search`: works with client-credentials tokens too. */
export const searchRoutes: ApiRoute[] = [
  { method: 'GET', path: '/search', user: false, handler: search },
];
