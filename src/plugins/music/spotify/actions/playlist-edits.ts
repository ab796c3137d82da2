import { z } from 'zod';
import { PipitError } from '../../../../core/errors.ts';
import { readPages } from '../paging.ts';
import { PLAYLIST_PAGE, resolvePlaylist } from '../playlists.ts';
import { asList, chunks, parseResource } from '../resources.ts';
import { spotifyAction } from '../state.ts';
import type { SpotifyState } from '../state.ts';
import { PlaylistParam } from './playlists.ts';

// Spotify takes at most 100 URIs per playlist write.
const MAX_URIS = 100;

const Resources = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .describe('track/episode URI or open.spotify.com link, or a list of them');

const SnapshotOut = z.object({
  snapshot_id: z.string().describe('the playlist version after the change'),
});

function playableUris(resources: string | string[]): string[] {
  return asList(resources).map(
    (r) => parseResource(r, { types: ['track', 'episode'], what: 'resource' }).uri,
  );
}

async function insert(
  state: SpotifyState,
  id: string,
  uris: string[],
  position: number | undefined,
  signal: AbortSignal,
): Promise<string> {
  let snapshot = '';
  // Sequential: each chunk goes after the previous one.
  for (const [i, chunk] of chunks(uris, MAX_URIS).entries()) {
    const body = await state.client.request<{ snapshot_id: string }>({
      method: 'POST',
      path: `/playlists/${id}/items`,
      body: {
        uris: chunk,
        ...(position === undefined ? {} : { position: position + i * MAX_URIS }),
      },
      signal,
    });
    snapshot = body.snapshot_id;
  }
  return snapshot;
}

async function removeAll(
  state: SpotifyState,
  id: string,
  uris: string[],
  snapshotId: string | undefined,
  signal: AbortSignal,
): Promise<string> {
  let snapshot = snapshotId ?? '';
  for (const chunk of chunks([...new Set(uris)], MAX_URIS)) {
    const body = await state.client.request<{ snapshot_id: string }>({
      method: 'DELETE',
      path: `/playlists/${id}/items`,
      body: {
        items: chunk.map((uri) => ({ uri })),
        ...(snapshotId ? { snapshot_id: snapshotId } : {}),
      },
      signal,
    });
    snapshot = body.snapshot_id;
  }
  return snapshot;
}

const addToPlaylist = spotifyAction({
  name: 'add_to_playlist',
  summary: 'Adds tracks or episodes to a playlist, at a 1-based position or at the end.',
  params: {
    playlist: PlaylistParam,
    resources: Resources,
    position: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .describe('1-based position of the first added item; none = append at the end'),
  },
  result: SnapshotOut,
  run: async ({ playlist, resources, position }, { state, signal }) => {
    const uris = playableUris(resources);
    const id = await resolvePlaylist(state, playlist, signal);
    const at = position === null || position === undefined ? undefined : position - 1;
    return { snapshot_id: await insert(state, id, uris, at, signal) };
  },
});

const removeFromPlaylist = spotifyAction({
  name: 'remove_from_playlist',
  summary: 'Removes every occurrence of the given tracks or episodes from a playlist.',
  description: "Sent in requests of at most 100 items, Spotify's limit per call.",
  params: { playlist: PlaylistParam, resources: Resources },
  result: SnapshotOut,
  run: async ({ playlist, resources }, { state, signal }) => {
    const uris = playableUris(resources);
    const id = await resolvePlaylist(state, playlist, signal);
    return { snapshot_id: await removeAll(state, id, uris, undefined, signal) };
  },
});

interface Slot {
  uri: string;
  /** Already in the playlist after the removal step. */
  kept: boolean;
}

const playlistMove = spotifyAction({
  name: 'playlist_move',
  summary: 'Moves range_length items from from_pos to to_pos (1-based), optionally replacing them.',
  description:
    'to_pos is the position the first moved item has after the move. With resources, the moved range is replaced by them (same count as range_length); other copies of the same items elsewhere in the playlist stay where they are.',
  params: {
    playlist: PlaylistParam,
    from_pos: z.number().int().min(1).describe('1-based position of the first item to move'),
    to_pos: z.number().int().min(1).describe('1-based position the first moved item ends up at'),
    range_length: z.number().int().min(1).default(1).describe('how many consecutive items to move'),
    resources: Resources.nullable()
      .optional()
      .describe('items replacing the moved range; as many as range_length'),
  },
  result: SnapshotOut,
  run: async (args, { state, signal }) => {
    const { from_pos: from, to_pos: to, range_length: length } = args;
    const replacement = args.resources ? playableUris(args.resources) : undefined;
    if (replacement && replacement.length !== length) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `playlist_move: "resources" has ${replacement.length} item(s) but range_length is ${length}; give exactly ${length}`,
      );
    }
    const id = await resolvePlaylist(state, args.playlist, signal);
    const meta = await state.client.request<{ snapshot_id: string; items?: { total?: number } }>({
      path: `/playlists/${id}`,
      query: { fields: 'snapshot_id,items.total' },
      signal,
    });
    const total = meta.items?.total ?? 0;
    if (from + length - 1 > total || to + length - 1 > total) {
      throw new PipitError(
        'INVALID_ARGUMENTS',
        `playlist_move: the playlist has ${total} items; a range of ${length} must start at 1 to ${total - length + 1} (from_pos ${from}, to_pos ${to})`,
      );
    }
    if (!replacement) {
      if (from === to) return { snapshot_id: meta.snapshot_id };
      const body = await state.client.request<{ snapshot_id: string }>({
        method: 'PUT',
        path: `/playlists/${id}/items`,
        body: {
          range_start: from - 1,
          // insert_before is a position in the list as it was before the move.
          insert_before: to > from ? to - 1 + length : to - 1,
          range_length: length,
          snapshot_id: meta.snapshot_id,
        },
        signal,
      });
      return { snapshot_id: body.snapshot_id };
    }
    // Spotify removes by URI only (every copy), so: remove every copy of the range's items, then
    // insert the replacement and re-insert the copies that lay outside the range, in order.
    const { items } = await readPages<{
      item?: { uri?: string } | null;
      track?: { uri?: string } | null;
    }>({
      fetchPage: (offset, limit) =>
        state.client.request({
          path: `/playlists/${id}/items`,
          query: { offset, limit, fields: 'total,items(item(uri),track(uri))' },
          signal,
        }),
      offset: 0,
      limit: undefined,
      pageSize: PLAYLIST_PAGE,
      concurrency: state.config.paging_concurrency,
    });
    const current = items.map((e) => e.item?.uri ?? e.track?.uri ?? '');
    const moved = new Set(current.slice(from - 1, from - 1 + length));
    const rest: Slot[] = [...current.slice(0, from - 1), ...current.slice(from - 1 + length)].map(
      (uri) => ({ uri, kept: !moved.has(uri) }),
    );
    const target: Slot[] = [
      ...rest.slice(0, to - 1),
      ...replacement.map((uri) => ({ uri, kept: false })),
      ...rest.slice(to - 1),
    ];
    let snapshot = await removeAll(state, id, [...moved], meta.snapshot_id, signal);
    for (let i = 0; i < target.length;) {
      if (target[i]!.kept) {
        i++;
        continue;
      }
      let end = i;
      while (end < target.length && !target[end]!.kept) end++;
      snapshot = await insert(
        state,
        id,
        target.slice(i, end).map((s) => s.uri),
        i,
        signal,
      );
      i = end;
    }
    return { snapshot_id: snapshot };
  },
});

/** add_to_playlist, remove_from_playlist, playlist_move. */
export const playlistEditActions = [addToPlaylist, removeFromPlaylist, playlistMove];
