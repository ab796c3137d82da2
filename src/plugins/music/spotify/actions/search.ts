import { z } from 'zod';
import { PipitError } from '../../../../core/errors.ts';
import { toAlbum, toArtist, toEpisode, toPlaylist, toShow, toTrack } from '../mappers.ts';
import type {
  ApiAlbum,
  ApiArtist,
  ApiEpisode,
  ApiPlaylist,
  ApiShow,
  ApiTrack,
} from '../mappers.ts';
import { readPages } from '../paging.ts';
import type { Page } from '../paging.ts';
import { parseResource } from '../resources.ts';
import { AlbumOut, ArtistOut, EpisodeOut, PlaylistOut, ShowOut, TrackOut } from '../schemas.ts';
import { spotifyAction } from '../state.ts';
import type { SpotifyState } from '../state.ts';
import { mapBounded } from '../timers.ts';

const SEARCH_TYPES = ['track', 'album', 'artist', 'playlist', 'show', 'episode'] as const;
type SearchType = (typeof SEARCH_TYPES)[number];
// Spotify refuses a page reaching past offset 1000 (400 or 404).
const OFFSET_CAP = 1000;

const Text = z.string().min(1);
const Filters = {
  any: Text.optional().describe('free text matched against anything'),
  uri: z
    .union([Text, z.array(Text)])
    .optional()
    .describe('URI, link or ID (or a list): look these up directly instead of searching'),
  artist: Text.optional().describe('artist name'),
  track: Text.optional().describe('track name'),
  album: Text.optional().describe('album name'),
  year: z
    .union([z.number().int(), Text])
    .optional()
    .describe('release year or range, e.g. 1955 or "1955-1960"'),
  genre: Text.optional().describe('genre (artists and tracks)'),
  isrc: Text.optional().describe('ISRC code (tracks)'),
  upc: Text.optional().describe('UPC code (albums)'),
  tag: z.enum(['new', 'hipster']).optional().describe('"new" or "hipster" (albums)'),
};
const QueryObject = z.strictObject(Filters);
type Filters = z.output<typeof QueryObject>;
const FILTER_NAMES = Object.keys(Filters);

const quote = (v: string) => (/\s/.test(v) ? `"${v.replace(/"/g, '')}"` : v);

/**
 * Builds Spotify's `q` from free text and structured filters.
 *
 * @example
 * buildQuery('remaster', { artist: 'Miles Dover', year: '1955-1960' });
 * // 'remaster artist:"Miles Dover" year:1955-1960'
 */
export function buildQuery(text: string | undefined, f: Filters): string {
  const parts: string[] = [];
  if (text?.trim()) parts.push(text.trim());
  if (f.any) parts.push(f.any);
  for (const key of ['artist', 'track', 'album', 'genre', 'isrc', 'upc', 'tag'] as const) {
    const value = f[key];
    if (value) parts.push(`${key}:${quote(value)}`);
  }
  if (f.year !== undefined) {
    const year = String(f.year).trim();
    if (!/^\d{4}(-\d{4})?$/.test(year)) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `search: "year" must be a year or a dash-separated range like 1955-1960; got "${year}"`,
      );
    }
    parts.push(`year:${year}`);
  }
  return parts.join(' ');
}

type Entity =
  | z.output<typeof TrackOut>
  | z.output<typeof AlbumOut>
  | z.output<typeof ArtistOut>
  | z.output<typeof PlaylistOut>
  | z.output<typeof ShowOut>
  | z.output<typeof EpisodeOut>;

function toEntity(type: SearchType, item: unknown): Entity {
  switch (type) {
    case 'track':
      return toTrack(item as ApiTrack);
    case 'album':
      return toAlbum(item as ApiAlbum);
    case 'artist':
      return toArtist(item as ApiArtist);
    case 'playlist':
      return toPlaylist(item as ApiPlaylist, null);
    case 'show':
      return toShow(item as ApiShow);
    case 'episode':
      return toEpisode(item as ApiEpisode);
  }
}

async function lookup(
  state: SpotifyState,
  type: SearchType,
  uris: string[],
  signal: AbortSignal,
): Promise<unknown[]> {
  const resources = uris.map((u) =>
    parseResource(u, { types: [type], bareIdType: type, what: 'uri' }),
  );
  return mapBounded(resources, state.config.paging_concurrency, (r) =>
    state.client.request({
      path: `/${r.type}s/${r.id}`,
      ...(r.type === 'playlist' ? { query: { fields: '!items,!tracks' } } : {}),
      signal,
    }),
  );
}

const search = spotifyAction({
  name: 'search',
  summary: 'Searches Spotify; returns a list of entities of the given type.',
  description:
    'The query is free text, an object {any, uri, artist, track, album, year, genre, isrc, upc, tag}, or the same filters as extra arguments. Spotify answers at most 10 results per request to Development-Mode apps, so larger limits are fetched as concurrent pages (at most 1000 results deep). With "uri" the resources are looked up directly.',
  extraArgs: true,
  params: {
    query: z
      .union([z.string(), QueryObject])
      .nullable()
      .optional()
      .describe('free text, or an object of filters (any, uri, artist, track, album, year, ...)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(OFFSET_CAP)
      .default(50)
      .describe('how many results, 1 to 1000'),
    offset: z
      .number()
      .int()
      .min(0)
      .max(OFFSET_CAP - 1)
      .default(0)
      .describe('results to skip'),
    type: z
      .enum(SEARCH_TYPES)
      .default('track')
      .describe('album, artist, playlist, track, show or episode'),
  },
  result: z.array(z.union([TrackOut, AlbumOut, ArtistOut, PlaylistOut, ShowOut, EpisodeOut])),
  run: async (args, { state, signal }) => {
    const { query, limit, offset, type, ...extra } = args as typeof args & Record<string, unknown>;
    const unknown = Object.keys(extra).filter((k) => !FILTER_NAMES.includes(k));
    if (unknown.length) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `search: unknown filter ${unknown.map((k) => `"${k}"`).join(', ')}; filters are ${FILTER_NAMES.join(', ')}`,
      );
    }
    const parsedExtra = QueryObject.safeParse(extra);
    if (!parsedExtra.success) {
      const issue = parsedExtra.error.issues[0]!;
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `search: filter "${issue.path.join('.')}": ${issue.message}`,
      );
    }
    const filters: Filters = {
      ...(typeof query === 'object' && query ? query : {}),
      ...parsedExtra.data,
    };
    if (filters.uri !== undefined) {
      const uris = typeof filters.uri === 'string' ? filters.uri.split(',') : filters.uri;
      const found = await lookup(
        state,
        type,
        uris.map((u) => u.trim()),
        signal,
      );
      return found.slice(offset, offset + limit).map((item) => toEntity(type, item));
    }
    const q = buildQuery(typeof query === 'string' ? query : undefined, filters);
    if (!q) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        'search: give a query (text or filters such as artist, track, album, year)',
      );
    }
    const key = `${type}s`;
    const { items } = await readPages<unknown>({
      fetchPage: async (at, size) => {
        const body = await state.client.request<Record<string, Page<unknown>>>({
          path: '/search',
          query: { q, type, limit: size, offset: at },
          signal,
        });
        return body?.[key] ?? { items: [], total: 0 };
      },
      offset,
      limit,
      pageSize: state.config.search_page_size,
      concurrency: state.config.paging_concurrency,
      cap: OFFSET_CAP,
    });
    // Spotify-owned playlists come back as null entries.
    return items.filter((item) => item !== null).map((item) => toEntity(type, item));
  },
});

/** search. */
export const searchActions = [search];
