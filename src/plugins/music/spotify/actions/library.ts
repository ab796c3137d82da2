import { z } from 'zod';
import { toAlbum, toEpisode, toShow, toTrack } from '../mappers.ts';
import type { ApiAlbum, ApiEpisode, ApiShow, ApiTrack } from '../mappers.ts';
import { readPages } from '../paging.ts';
import type { Page } from '../paging.ts';
import { chunks, parseResource } from '../resources.ts';
import type { ResourceType } from '../resources.ts';
import { AlbumOut, EpisodeOut, ShowOut, TrackOut } from '../schemas.ts';
import { spotifyAction } from '../state.ts';
import { mapBounded } from '../timers.ts';

// `/me/library` takes at most 40 URIs per call; the saved-item lists at most 50 per page.
const MAX_LIBRARY_URIS = 40;
const LIBRARY_PAGE = 50;

interface Kind {
  type: Extract<ResourceType, 'track' | 'album' | 'episode' | 'show'>;
  plural: string;
  defaultLimit: number;
  result: z.ZodType;
  map: (item: unknown) => unknown;
}

const KINDS: Kind[] = [
  {
    type: 'album',
    plural: 'albums',
    defaultLimit: 50,
    result: AlbumOut,
    map: (a) => toAlbum(a as ApiAlbum),
  },
  {
    type: 'episode',
    plural: 'episodes',
    defaultLimit: 50,
    result: EpisodeOut,
    map: (e) => toEpisode(e as ApiEpisode),
  },
  {
    type: 'show',
    plural: 'shows',
    defaultLimit: 50,
    result: ShowOut,
    map: (s) => toShow(s as ApiShow),
  },
  {
    type: 'track',
    plural: 'tracks',
    defaultLimit: 100,
    result: TrackOut,
    map: (t) => toTrack(t as ApiTrack),
  },
];

function listAction(kind: Kind) {
  return spotifyAction({
    name: `get_${kind.plural}`,
    summary: `Lists the ${kind.plural} saved in your library, most recently saved first.`,
    params: {
      limit: z
        .number()
        .int()
        .min(1)
        .max(100_000)
        .default(kind.defaultLimit)
        .describe(`how many ${kind.plural}`),
      offset: z.number().int().min(0).default(0).describe(`${kind.plural} to skip`),
    },
    result: z.array(kind.result),
    run: async ({ limit, offset }, { state, signal }) => {
      const { items } = await readPages<Record<string, unknown>>({
        fetchPage: (at, size) =>
          state.client.request<Page<Record<string, unknown>>>({
            path: `/me/${kind.plural}`,
            query: { offset: at, limit: size },
            signal,
          }),
        offset,
        limit,
        pageSize: LIBRARY_PAGE,
        concurrency: state.config.paging_concurrency,
      });
      return items.filter((e) => e?.[kind.type]).map((e) => kind.map(e[kind.type]));
    },
  });
}

function writeAction(kind: Kind, save: boolean) {
  return spotifyAction({
    name: `${save ? 'save' : 'remove'}_${kind.plural}`,
    summary: save
      ? `Saves ${kind.plural} to your library.`
      : `Removes ${kind.plural} from your library.`,
    description: `Sent in requests of at most ${MAX_LIBRARY_URIS} items, Spotify's limit per call.`,
    params: {
      resources: z
        .array(z.string().min(1))
        .min(1)
        .describe(`${kind.type} IDs, URIs (spotify:${kind.type}:<id>) or open.spotify.com links`),
    },
    run: async ({ resources }, { state, signal }) => {
      const uris = resources.map(
        (r) =>
          parseResource(r, { types: [kind.type], bareIdType: kind.type, what: 'resource' }).uri,
      );
      await mapBounded(chunks(uris, MAX_LIBRARY_URIS), state.config.paging_concurrency, (chunk) =>
        state.client.request({
          method: save ? 'PUT' : 'DELETE',
          path: '/me/library',
          query: { uris: chunk.join(',') },
          signal,
        }),
      );
    },
  });
}

/** get_/save_/remove_ albums, episodes, shows and tracks. */
export const libraryActions = KINDS.flatMap((kind) => [
  listAction(kind),
  writeAction(kind, true),
  writeAction(kind, false),
]);
