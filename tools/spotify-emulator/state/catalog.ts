import { Prng } from '../random.ts';

/** An artist in the seeded catalog. */
export interface Artist {
  id: string;
  name: string;
  genres: string[];
  popularity: number;
  followers: number;
}

/** An album; `releaseDate` is `YYYY-MM-DD`. */
export interface Album {
  id: string;
  name: string;
  artistIds: string[];
  albumType: 'album' | 'single' | 'compilation';
  releaseDate: string;
  trackIds: string[];
  upc: string;
  label: string;
  popularity: number;
}

/** A track; it belongs to exactly one album. */
export interface Track {
  id: string;
  name: string;
  albumId: string;
  artistIds: string[];
  durationMs: number;
  trackNumber: number;
  explicit: boolean;
  isrc: string;
  popularity: number;
}

/** A podcast show. */
export interface Show {
  id: string;
  name: string;
  publisher: string;
  description: string;
  episodeIds: string[];
}

/** A podcast episode. */
export interface Episode {
  id: string;
  name: string;
  showId: string;
  description: string;
  durationMs: number;
  releaseDate: string;
}

/** Sizes of the generated catalog. */
export interface CatalogSize {
  artists: number;
  albums: number;
  shows: number;
}

const ADJ = [
  'Blue',
  'Electric',
  'Quiet',
  'Golden',
  'Midnight',
  'Velvet',
  'Paper',
  'Crystal',
  'Wild',
  'Silver',
  'Hollow',
  'Neon',
  'Amber',
  'Lonely',
  'Bright',
  'Falling',
];
const NOUN = [
  'River',
  'Harbor',
  'Garden',
  'Engine',
  'Mirror',
  'Signal',
  'Horizon',
  'Lantern',
  'Orchard',
  'Comet',
  'Shadow',
  'Meadow',
  'Circuit',
  'Echo',
  'Tide',
  'Window',
];
const FIRST = [
  'Ada',
  'Bruno',
  'Clara',
  'Dev',
  'Elif',
  'Femi',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Omar',
  'Priya',
];
const GENRES = [
  'indie pop',
  'jazz',
  'ambient',
  'techno',
  'folk',
  'hip hop',
  'classical',
  'soul',
  'punk',
  'bossa nova',
];
const LABELS = ['Pipit Records', 'Harbor Sound', 'Night Owl Music', 'Paper Tiger'];

/** Hand-made entries with known names, so search tests can target them. */
const FIXED_ARTIST = { name: 'Miles Dover', genres: ['jazz'] };
const FIXED_ALBUM = { name: 'Harbor Sessions', releaseDate: '1955-06-01' };
const FIXED_TRACKS = ['Doxy', 'Oleander', 'Doxy - Remastered', 'Blue Harbor', 'Walkin Home'];

/**
 * The read-only catalog: generated from a seed with a PRNG, so the same seed gives identical IDs
 * and names (no data files are checked in).
 */
export class Catalog {
  readonly artists = new Map<string, Artist>();
  readonly albums = new Map<string, Album>();
  readonly tracks = new Map<string, Track>();
  readonly shows = new Map<string, Show>();
  readonly episodes = new Map<string, Episode>();
  /** The hand-made jazz album's ID ("Harbor Sessions" by "Miles Dover", 1955). */
  fixedAlbumId = '';

  /**
   * @example
   * const catalog = Catalog.generate(1, { artists: 60, albums: 420, shows: 8 }, Date.now());
   */
  static generate(seed: number, size: CatalogSize, now: number): Catalog {
    const catalog = new Catalog();
    const rng = new Prng(seed);
    catalog.#generateMusic(rng, size, now);
    catalog.#generatePodcasts(rng, size.shows, now);
    return catalog;
  }

  #generateMusic(rng: Prng, size: CatalogSize, now: number): void {
    const artistIds: string[] = [];
    for (let i = 0; i < size.artists; i++) {
      const fixed = i === 0;
      const artist: Artist = {
        id: rng.base62(),
        name: fixed
          ? FIXED_ARTIST.name
          : `${rng.pick(FIRST)} ${rng.pick(NOUN)}${i % 3 === 0 ? ' Band' : ''}`,
        genres: fixed ? FIXED_ARTIST.genres : [rng.pick(GENRES)],
        popularity: rng.int(101),
        followers: rng.int(1_000_000),
      };
      this.artists.set(artist.id, artist);
      artistIds.push(artist.id);
    }
    for (let i = 0; i < size.albums; i++) {
      const fixed = i === 0;
      const artistId = fixed ? artistIds[0]! : artistIds[i % artistIds.length]!;
      // A few albums fall inside the last two weeks so `tag:new` has matches.
      const released = i % 97 === 5 ? new Date(now - rng.int(10) * 86_400_000) : null;
      const year = rng.range(1950, 2026);
      const releaseDate = fixed
        ? FIXED_ALBUM.releaseDate
        : (released?.toISOString().slice(0, 10) ??
          `${year}-${String(rng.range(1, 12)).padStart(2, '0')}-${String(rng.range(1, 28)).padStart(2, '0')}`);
      const album: Album = {
        id: rng.base62(),
        name: fixed ? FIXED_ALBUM.name : `${rng.pick(ADJ)} ${rng.pick(NOUN)}`,
        artistIds: [artistId],
        albumType: i % 11 === 0 && !fixed ? 'single' : 'album',
        releaseDate,
        trackIds: [],
        upc: String(rng.range(100_000_000, 999_999_999)).padStart(12, '0'),
        label: rng.pick(LABELS),
        popularity: rng.int(101),
      };
      const count = fixed
        ? FIXED_TRACKS.length
        : album.albumType === 'single'
          ? 2
          : rng.range(6, 18);
      for (let n = 0; n < count; n++) {
        const track: Track = {
          id: rng.base62(),
          name: fixed
            ? FIXED_TRACKS[n]!
            : `${rng.pick(ADJ)} ${rng.pick(NOUN)}${n % 5 === 4 ? ' (Live)' : ''}`,
          albumId: album.id,
          artistIds: [artistId],
          durationMs: rng.range(95_000, 420_000),
          trackNumber: n + 1,
          explicit: rng.int(8) === 0,
          isrc: `USPIP${String(this.tracks.size).padStart(7, '0')}`,
          popularity: rng.int(101),
        };
        this.tracks.set(track.id, track);
        album.trackIds.push(track.id);
      }
      this.albums.set(album.id, album);
      if (fixed) this.fixedAlbumId = album.id;
    }
  }

  #generatePodcasts(rng: Prng, shows: number, now: number): void {
    for (let i = 0; i < shows; i++) {
      const name = `The ${rng.pick(ADJ)} ${rng.pick(NOUN)} Podcast`;
      const show: Show = {
        id: rng.base62(),
        name,
        publisher: `${rng.pick(FIRST)} Media`,
        description: `Weekly conversations about ${rng.pick(GENRES)}.`,
        episodeIds: [],
      };
      const count = rng.range(6, 30);
      for (let n = 0; n < count; n++) {
        const episode: Episode = {
          id: rng.base62(),
          name: `${name} #${count - n}: ${rng.pick(ADJ)} ${rng.pick(NOUN)}`,
          showId: show.id,
          description: `Episode ${count - n} of ${name}.`,
          durationMs: rng.range(900_000, 4_800_000),
          releaseDate: new Date(now - (n + 1) * 7 * 86_400_000).toISOString().slice(0, 10),
        };
        this.episodes.set(episode.id, episode);
        show.episodeIds.push(episode.id);
      }
      this.shows.set(show.id, show);
    }
  }

  /** Duration of a playable track/episode URI, or undefined when it is unknown. */
  durationOf(uri: string): number | undefined {
    const [, type, id = ''] = uri.split(':');
    if (type === 'track') return this.tracks.get(id)?.durationMs;
    if (type === 'episode') return this.episodes.get(id)?.durationMs;
    return undefined;
  }

  /** Whether a `spotify:{type}:{id}` URI names something in the catalog (playlists excluded). */
  has(type: string, id: string): boolean {
    const map = {
      track: this.tracks,
      album: this.albums,
      artist: this.artists,
      show: this.shows,
      episode: this.episodes,
    }[type];
    return map?.has(id) ?? false;
  }

  /** Every track of an artist, album by album (used as the artist "context"). */
  artistTrackIds(artistId: string): string[] {
    const out: string[] = [];
    for (const album of this.albums.values()) {
      if (album.artistIds.includes(artistId)) out.push(...album.trackIds);
    }
    return out;
  }
}
