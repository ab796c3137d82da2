import type {
  AlbumOut,
  ArtistOut,
  DeviceOut,
  EpisodeOut,
  PlayableOut,
  PlaylistItemOut,
  PlaylistOut,
  ShowOut,
  TrackOut,
} from './schemas.ts';

// The subset of the Web API's objects the plugin reads. Everything is optional: the API drops
// fields over time (popularity, genres) and local files lack IDs and dates.

interface ApiImage {
  url?: string;
}
interface ApiLinks {
  id?: string | null;
  uri?: string;
  name?: string;
  external_urls?: { spotify?: string };
  images?: ApiImage[];
  popularity?: number;
}
/** A Web API artist. */
export interface ApiArtist extends ApiLinks {
  genres?: string[];
}
/** A Web API album. */
export interface ApiAlbum extends ApiLinks {
  artists?: ApiArtist[];
  release_date?: string;
  tracks?: { items?: (ApiTrack | null)[] };
}
/** A Web API track. */
export interface ApiTrack extends ApiLinks {
  type?: 'track';
  album?: ApiAlbum;
  artists?: ApiArtist[];
  duration_ms?: number;
  track_number?: number;
}
/** A Web API show. */
export interface ApiShow extends ApiLinks {
  description?: string | null;
  publisher?: string;
  episodes?: { items?: (ApiEpisode | null)[] };
}
/** A Web API episode. */
export interface ApiEpisode extends ApiLinks {
  type?: 'episode';
  description?: string | null;
  duration_ms?: number;
  release_date?: string;
  show?: ApiShow;
}
/** A Web API playlist (full or simplified). */
export interface ApiPlaylist extends ApiLinks {
  id: string;
  collaborative?: boolean;
  description?: string | null;
  owner?: { id?: string; display_name?: string | null; uri?: string };
  public?: boolean | null;
  snapshot_id?: string;
  items?: ApiPlaylistPage;
  tracks?: ApiPlaylistPage;
}
/** A page of playlist entries (`item`, or the deprecated `track`). */
export interface ApiPlaylistPage {
  items?: ({ item?: ApiTrack | ApiEpisode | null; track?: ApiTrack | ApiEpisode | null } | null)[];
  total?: number;
  next?: string | null;
}
/** A Web API device. */
export interface ApiDevice {
  id?: string | null;
  is_active?: boolean;
  is_private_session?: boolean;
  is_restricted?: boolean;
  name?: string;
  type?: string;
  volume_percent?: number | null;
}

const nul = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const names = (artists?: ApiArtist[]) =>
  artists?.length ? artists.map((a) => a.name ?? '').join(', ') : null;
const image = (images?: ApiImage[]) => images?.[0]?.url ?? null;
const year = (date?: string) => {
  const y = date ? Number.parseInt(date.slice(0, 4), 10) : Number.NaN;
  return Number.isFinite(y) ? y : null;
};
const seconds = (ms?: number) => (typeof ms === 'number' ? ms / 1000 : null);

/**
 * A track entity; an album-less track (from an album's own track list) takes `parent`'s album.
 *
 * @example
 * toTrack(apiTrack).duration; // seconds
 */
export function toTrack(t: ApiTrack, parent?: ApiAlbum): TrackOut {
  const album = t.album ?? parent;
  const uri = t.uri ?? '';
  return {
    album: album?.name ?? null,
    artist: names(t.artists),
    date: year(album?.release_date),
    duration: seconds(t.duration_ms),
    file: uri,
    id: t.id ?? null,
    image_url: image(album?.images),
    popularity: nul(t.popularity),
    title: t.name ?? '',
    track: nul(t.track_number),
    type: 'track',
    uri,
    url: t.external_urls?.spotify ?? null,
  };
}

/**
 * An episode entity (album = show name, artist = publisher).
 *
 * @example
 * toEpisode(apiEpisode).show;
 */
export function toEpisode(e: ApiEpisode, parent?: ApiShow): EpisodeOut {
  const show = e.show ?? parent;
  const uri = e.uri ?? '';
  return {
    album: show?.name ?? null,
    artist: show?.publisher ?? null,
    date: year(e.release_date),
    duration: seconds(e.duration_ms),
    file: uri,
    id: e.id ?? null,
    image_url: image(e.images) ?? image(show?.images),
    popularity: nul(e.popularity),
    title: e.name ?? '',
    track: null,
    type: 'episode',
    uri,
    url: e.external_urls?.spotify ?? null,
    description: e.description ?? null,
    show: show?.name ?? null,
  };
}

/**
 * A track or an episode, by the object's `type` (or its URI).
 *
 * @example
 * toPlayable(item);
 */
export function toPlayable(item: ApiTrack | ApiEpisode): PlayableOut {
  const isEpisode = item.type === 'episode' || item.uri?.startsWith('spotify:episode:');
  return isEpisode ? toEpisode(item as ApiEpisode) : toTrack(item as ApiTrack);
}

/**
 * An album entity; `tracks` is null when the API object carries none (search results).
 *
 * @example
 * toAlbum(apiAlbum).date; // '1955-06-01'
 */
export function toAlbum(a: ApiAlbum): AlbumOut {
  return {
    artist: names(a.artists),
    date: a.release_date ?? null,
    id: a.id ?? null,
    image_url: image(a.images),
    name: a.name ?? '',
    popularity: nul(a.popularity),
    tracks: a.tracks?.items
      ? a.tracks.items.filter((t): t is ApiTrack => t !== null).map((t) => toTrack(t, a))
      : null,
    type: 'album',
    uri: a.uri ?? '',
    url: a.external_urls?.spotify ?? null,
  };
}

/**
 * A show entity (shows carry no release date or popularity: null).
 *
 * @example
 * toShow(apiShow).publisher;
 */
export function toShow(s: ApiShow): ShowOut {
  return {
    artist: s.publisher ?? null,
    date: null,
    id: s.id ?? null,
    image_url: image(s.images),
    name: s.name ?? '',
    popularity: nul(s.popularity),
    tracks: s.episodes?.items
      ? s.episodes.items.filter((e): e is ApiEpisode => e !== null).map((e) => toEpisode(e, s))
      : null,
    type: 'show',
    uri: s.uri ?? '',
    url: s.external_urls?.spotify ?? null,
    description: s.description ?? null,
    publisher: s.publisher ?? null,
  };
}

/**
 * An artist entity.
 *
 * @example
 * toArtist(apiArtist).genres;
 */
export function toArtist(a: ApiArtist): ArtistOut {
  return {
    genres: a.genres ?? null,
    id: a.id ?? null,
    image_url: image(a.images),
    name: a.name ?? '',
    popularity: nul(a.popularity),
    type: 'artist',
    uri: a.uri ?? '',
    url: a.external_urls?.spotify ?? null,
  };
}

/**
 * Playlist entries with 1-based positions counted from `offset`; unavailable (null) items are
 * skipped without shifting the others' positions.
 *
 * @example
 * toPlaylistItems(page.items, 0)[0].position; // 1
 */
export function toPlaylistItems(
  entries: ApiPlaylistPage['items'],
  offset: number,
): PlaylistItemOut[] {
  const out: PlaylistItemOut[] = [];
  (entries ?? []).forEach((entry, i) => {
    const item = entry?.item ?? entry?.track;
    if (item) out.push({ ...toPlayable(item), position: offset + i + 1 });
  });
  return out;
}

/**
 * A playlist entity; `tracks` as given (null = metadata only).
 *
 * @example
 * toPlaylist(apiPlaylist, null);
 */
export function toPlaylist(p: ApiPlaylist, tracks: PlaylistItemOut[] | null): PlaylistOut {
  return {
    collaborative: p.collaborative ?? false,
    description: p.description ?? null,
    id: p.id,
    name: p.name ?? '',
    owner: {
      id: p.owner?.id ?? '',
      display_name: p.owner?.display_name ?? null,
      uri: p.owner?.uri ?? null,
    },
    public: p.public ?? null,
    snapshot_id: p.snapshot_id ?? '',
    tracks,
    uri: p.uri ?? `spotify:playlist:${p.id}`,
    url: p.external_urls?.spotify ?? null,
  };
}

/**
 * A device entity.
 *
 * @example
 * toDevice(apiDevice).volume;
 */
export function toDevice(d: ApiDevice): DeviceOut {
  return {
    id: d.id ?? null,
    is_active: d.is_active ?? false,
    is_private_session: d.is_private_session ?? false,
    is_restricted: d.is_restricted ?? false,
    name: d.name ?? '',
    type: d.type ?? 'Unknown',
    volume: d.volume_percent ?? null,
  };
}
