import type { Album, Catalog, Episode, Show, Track } from './catalog.ts';

/** Fields every rendered object needs: the catalog and the API origin for `href`s. */
export interface RenderContext {
  catalog: Catalog;
  /** API base, e.g. `http://127.0.0.1:PORT/v1`. */
  api: string;
}

const MARKETS = ['DE', 'GB', 'SE', 'US'];

function links(ctx: RenderContext, type: string, id: string, plural = `${type}s`) {
  return {
    external_urls: { spotify: `https://open.spotify.com/${type}/${id}` },
    href: `${ctx.api}/${plural}/${id}`,
    id,
    type,
    uri: `spotify:${type}:${id}`,
  };
}

function images(id: string) {
  const hex = Buffer.from(id).toString('hex').slice(0, 24);
  return [640, 300, 64].map((size) => ({
    url: `https://i.scdn.co/image/ab67616d0000${size}${hex}`,
    height: size,
    width: size,
  }));
}

/**
 * `SimplifiedArtistObject`.
 * @example
 * renderSimplifiedArtist(ctx, artistId);
 */
export function renderSimplifiedArtist(ctx: RenderContext, id: string) {
  const artist = ctx.catalog.artists.get(id)!;
  return { ...links(ctx, 'artist', id), name: artist.name };
}

/**
 * `ArtistObject` (deprecated `followers`/`genres`/`popularity` still sent: clients read them).
 * @example
 * renderArtist(ctx, artistId);
 */
export function renderArtist(ctx: RenderContext, id: string) {
  const artist = ctx.catalog.artists.get(id)!;
  return {
    ...renderSimplifiedArtist(ctx, id),
    followers: { href: null, total: artist.followers },
    genres: artist.genres,
    images: images(id),
    popularity: artist.popularity,
  };
}

/**
 * `SimplifiedAlbumObject`.
 * @example
 * renderSimplifiedAlbum(ctx, album);
 */
export function renderSimplifiedAlbum(ctx: RenderContext, album: Album) {
  return {
    album_type: album.albumType,
    total_tracks: album.trackIds.length,
    available_markets: MARKETS,
    ...links(ctx, 'album', album.id),
    images: images(album.id),
    name: album.name,
    release_date: album.releaseDate,
    release_date_precision: 'day',
    artists: album.artistIds.map((a) => renderSimplifiedArtist(ctx, a)),
  };
}

function simplifiedTrack(ctx: RenderContext, track: Track) {
  return {
    artists: track.artistIds.map((a) => renderSimplifiedArtist(ctx, a)),
    available_markets: MARKETS,
    disc_number: 1,
    duration_ms: track.durationMs,
    explicit: track.explicit,
    ...links(ctx, 'track', track.id),
    is_playable: true,
    name: track.name,
    track_number: track.trackNumber,
    is_local: false,
  };
}

/**
 * `AlbumObject` with its first page of tracks embedded (limit 50, like the real API).
 * @example
 * renderAlbum(ctx, album);
 */
export function renderAlbum(ctx: RenderContext, album: Album) {
  const first = album.trackIds.slice(0, 50);
  const total = album.trackIds.length;
  return {
    ...renderSimplifiedAlbum(ctx, album),
    tracks: {
      href: `${ctx.api}/albums/${album.id}/tracks?offset=0&limit=50`,
      items: first.map((id) => simplifiedTrack(ctx, ctx.catalog.tracks.get(id)!)),
      limit: 50,
      next: total > 50 ? `${ctx.api}/albums/${album.id}/tracks?offset=50&limit=50` : null,
      offset: 0,
      previous: null,
      total,
    },
    copyrights: [{ text: `(P) ${album.releaseDate.slice(0, 4)} ${album.label}`, type: 'P' }],
    external_ids: { upc: album.upc },
    genres: [],
    label: album.label,
    popularity: album.popularity,
  };
}

/**
 * `TrackObject`.
 * @example
 * renderTrack(ctx, trackId);
 */
export function renderTrack(ctx: RenderContext, id: string) {
  const track = ctx.catalog.tracks.get(id)!;
  const album = ctx.catalog.albums.get(track.albumId)!;
  return {
    album: renderSimplifiedAlbum(ctx, album),
    ...simplifiedTrack(ctx, track),
    external_ids: { isrc: track.isrc },
    popularity: track.popularity,
    preview_url: null,
  };
}

/**
 * `SimplifiedShowObject`.
 * @example
 * renderShow(ctx, show);
 */
export function renderShow(ctx: RenderContext, show: Show) {
  return {
    available_markets: MARKETS,
    copyrights: [],
    description: show.description,
    html_description: `<p>${show.description}</p>`,
    explicit: false,
    ...links(ctx, 'show', show.id),
    images: images(show.id),
    is_externally_hosted: false,
    languages: ['en'],
    media_type: 'audio',
    name: show.name,
    publisher: show.publisher,
    total_episodes: show.episodeIds.length,
  };
}

/**
 * `SimplifiedEpisodeObject`; `resumeMs` is the user's resume point.
 * @example
 * renderSimplifiedEpisode(ctx, episode);
 */
export function renderSimplifiedEpisode(ctx: RenderContext, episode: Episode, resumeMs = 0) {
  return {
    audio_preview_url: null,
    description: episode.description,
    html_description: `<p>${episode.description}</p>`,
    duration_ms: episode.durationMs,
    explicit: false,
    ...links(ctx, 'episode', episode.id),
    images: images(episode.id),
    is_externally_hosted: false,
    is_playable: true,
    languages: ['en'],
    name: episode.name,
    release_date: episode.releaseDate,
    release_date_precision: 'day',
    resume_point: { fully_played: false, resume_position_ms: resumeMs },
  };
}

/**
 * `EpisodeObject` (with its show).
 * @example
 * renderEpisode(ctx, episodeId);
 */
export function renderEpisode(ctx: RenderContext, id: string) {
  const episode = ctx.catalog.episodes.get(id)!;
  return {
    ...renderSimplifiedEpisode(ctx, episode),
    show: renderShow(ctx, ctx.catalog.shows.get(episode.showId)!),
  };
}

/**
 * A track or episode object for a playable URI, or null when it is unknown.
 * @example
 * renderPlayable(ctx, 'spotify:track:…');
 */
export function renderPlayable(ctx: RenderContext, uri: string) {
  const [, type, id = ''] = uri.split(':');
  if (type === 'track' && ctx.catalog.tracks.has(id)) return renderTrack(ctx, id);
  if (type === 'episode' && ctx.catalog.episodes.has(id)) return renderEpisode(ctx, id);
  return null;
}

/**
 * `ContextObject` for a context URI.
 * @example
 * renderContext(ctx, 'spotify:album:…');
 */
export function renderContext(ctx: RenderContext, uri: string) {
  const [, type = '', id = ''] = uri.split(':');
  return {
    type,
    href: `${ctx.api}/${type}s/${id}`,
    external_urls: { spotify: `https://open.spotify.com/${type}/${id}` },
    uri,
  };
}
