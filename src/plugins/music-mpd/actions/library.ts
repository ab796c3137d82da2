import { PipitError, z } from '../../api/index.ts';
import type { MpdClient } from '../client.ts';
import { mpdAction, SongsResult } from '../params.ts';
import type { MpdArg, MpdCommand } from '../protocol.ts';
import { toObjects, toSongs } from '../shapes.ts';
import type { MpdObject } from '../shapes.ts';

const TagFilter = z
  .record(
    z
      .string()
      .regex(/^[A-Za-z_-]+$/, 'is not an MPD tag name (artist, album, title, any, file...)'),
    z.union([z.string(), z.number()]),
  )
  .refine((f) => Object.keys(f).length > 0, 'is empty: name at least one tag');

const filterArg = z
  .union([TagFilter, z.string().regex(/^\(.*\)$/s, 'is not an MPD filter expression in (...)')])
  .describe(
    'tags and values, e.g. {"artist": "Led Zeppelin", "album": "IV"}; or an MPD filter expression, e.g. "(artist == \'Elbow\')"',
  );
type Filter = z.output<typeof filterArg>;

/** The arguments of find/search: tag and value pairs, or one filter expression. */
function filterArgs(filter: Filter): MpdArg[] {
  return typeof filter === 'string' ? [filter] : Object.entries(filter).flat();
}

/** Spotify results first, as Platypush orders search results (for Mopidy). */
function spotifyFirst(items: MpdObject[]): MpdObject[] {
  const rank = (item: MpdObject) =>
    typeof item.file === 'string' && item.file.startsWith('spotify:') ? 0 : 1;
  return [...items].sort((a, b) => rank(a) - rank(b));
}

const find = (name: 'find' | 'findadd', summary: string) =>
  mpdAction({
    name,
    summary,
    params: { filter: filterArg },
    result: name === 'find' ? SongsResult : z.null(),
    run: async ({ filter }, { state, signal }) => {
      const lines = await state.run([name, ...filterArgs(filter)] as MpdCommand, signal);
      return name === 'find' ? toSongs(lines) : null;
    },
  });

const search = mpdAction({
  name: 'search',
  summary: 'Searches the library: tags containing the values, in any case.',
  description:
    'query is free text (searched in any tag) or a filter; filter is the older name for a filter. Both filters are merged.',
  params: {
    query: z
      .union([z.string().min(1), TagFilter])
      .optional()
      .describe('free text searched in every tag, a filter expression in (...), or {tag: value}'),
    filter: TagFilter.optional().describe(
      '{tag: value}, e.g. {"artist": "Elbow", "album": "Little Fictions"}',
    ),
  },
  result: SongsResult,
  run: async ({ query, filter }, { state, signal }) => {
    let args: MpdArg[];
    if (typeof query === 'string') args = query.startsWith('(') ? [query] : ['any', query];
    else if (query || filter) args = filterArgs({ ...filter, ...query });
    else
      throw new PipitError(
        'INVALID_ARGUMENTS',
        'music.mpd.search: give "query" (text or {tag: value}) or "filter" ({tag: value})',
      );
    return spotifyFirst(toSongs(await state.run(['search', ...args], signal)));
  },
});

const Entries = z
  .array(z.record(z.string(), z.unknown()))
  .describe('entries: {directory}, {file, ...tags} or {playlist}, with last-modified');

async function listFolder(state: MpdClient, uri: string | undefined, signal: AbortSignal) {
  return toObjects(await state.run(uri ? ['lsinfo', uri] : ['lsinfo'], signal), [
    'file',
    'directory',
    'playlist',
  ]);
}

/** The library: search, find, and browsing its folders. */
export const libraryActions = [
  search,
  mpdAction({
    name: 'searchadd',
    summary: 'Searches the library (as search) and adds what it finds to the queue.',
    params: { filter: filterArg },
    result: z.null(),
    run: async ({ filter }, { state, signal }) => {
      await state.run(['searchadd', ...filterArgs(filter)] as MpdCommand, signal);
      return null;
    },
  }),
  find('find', 'Finds the songs whose tags are exactly these values.'),
  find('findadd', 'Finds songs (as find) and adds them to the queue.'),
  mpdAction({
    name: 'lsinfo',
    summary: 'The folders, songs and playlists in a folder of the library (the top without uri).',
    params: {
      uri: z.string().optional().describe('a folder of the music directory (default: the top)'),
    },
    result: Entries,
    run: ({ uri }, { state, signal }) => listFolder(state, uri, signal),
  }),
  mpdAction({
    name: 'browse',
    summary: 'The folders, songs and playlists in a folder of the library (lsinfo, by path).',
    params: {
      path: z.string().optional().describe('a folder of the music directory (default: the top)'),
    },
    result: Entries,
    run: ({ path }, { state, signal }) => listFolder(state, path, signal),
  }),
];
