import { randomBytes } from 'node:crypto';
import { ApiError } from '../http.ts';

/** One entry; objects are shared between snapshots, so identity tracks an entry across edits. */
export interface PlaylistItem {
  readonly uri: string;
  readonly addedAt: number;
  readonly addedBy: string;
}

/** A playlist with its snapshot history. */
export interface Playlist {
  id: string;
  ownerId: string;
  ownerName: string;
  name: string;
  description: string | null;
  public: boolean;
  collaborative: boolean;
  collaborators: Set<string>;
  followers: number;
  items: readonly PlaylistItem[];
  snapshotId: string;
  /** Older versions by snapshot_id, so edits naming an older snapshot can be checked. */
  snapshots: Map<string, readonly PlaylistItem[]>;
}

/** Keep this many versions; a 5,000-item playlist costs one array per version. */
const SNAPSHOT_HISTORY = 50;

/**
 * A fresh opaque snapshot ID (about 56 base64 characters, like the live API's).
 * @example
 * newSnapshotId();
 */
export function newSnapshotId(): string {
  return randomBytes(42).toString('base64');
}

/**
 * Record a new version: every change, including name/description/privacy, gets a new snapshot_id.
 * @example
 * commit(playlist, [...playlist.items, item]);
 */
export function commit(
  playlist: Playlist,
  items: readonly PlaylistItem[] = playlist.items,
): string {
  playlist.items = items;
  playlist.snapshotId = newSnapshotId();
  playlist.snapshots.set(playlist.snapshotId, items);
  if (playlist.snapshots.size > SNAPSHOT_HISTORY) {
    const oldest = playlist.snapshots.keys().next().value;
    if (oldest !== undefined) playlist.snapshots.delete(oldest);
  }
  return playlist.snapshotId;
}

/**
 * The item list a request refers to: the named snapshot, or the current one.
 * @example
 * const base = versionOf(playlist, body.snapshot_id);
 */
export function versionOf(playlist: Playlist, snapshotId: unknown): readonly PlaylistItem[] {
  if (snapshotId === undefined || snapshotId === null) return playlist.items;
  const items = typeof snapshotId === 'string' ? playlist.snapshots.get(snapshotId) : undefined;
  // Message not verified against the live API.
  if (!items) throw new ApiError(400, 'Invalid snapshot id');
  return items;
}

/**
 * Move `length` entries starting at `start` (indices in `base`) before `insertBefore`, applied to
 * the current list: the moved entries and the anchor are found by identity, which is how a change
 * against an older snapshot still lands on the intended entries.
 * @example
 * reorder(playlist.items, playlist.items, 0, 1, 10);
 */
export function reorder(
  current: readonly PlaylistItem[],
  base: readonly PlaylistItem[],
  start: number,
  length: number,
  insertBefore: number,
): PlaylistItem[] {
  if (
    start < 0 ||
    length < 1 ||
    start + length > base.length ||
    insertBefore < 0 ||
    insertBefore > base.length
  ) {
    throw new ApiError(400, 'Index out of bounds');
  }
  const moved = base.slice(start, start + length);
  if (moved.some((item) => !current.includes(item))) {
    throw new ApiError(400, 'Items in the range no longer exist in the playlist');
  }
  // Inserting before the range itself or right after it leaves the order unchanged.
  if (insertBefore >= start && insertBefore <= start + length) return [...current];
  const movedSet = new Set(moved);
  const rest = current.filter((item) => !movedSet.has(item));
  const anchor = base[insertBefore];
  let at = anchor === undefined ? rest.length : rest.indexOf(anchor);
  if (at < 0) at = rest.length;
  return [...rest.slice(0, at), ...moved, ...rest.slice(at)];
}

/** All playlists (user-owned and Spotify-owned) by ID. */
export class PlaylistStore {
  readonly byId = new Map<string, Playlist>();
  /** Spotify-owned/algorithmic playlists: 404 "Resource not found" for Development-Mode apps. */
  readonly spotifyOwned = new Set<string>();

  /**
   * Create a playlist with its first snapshot.
   * @example
   * store.create({ id, ownerId: 'u', ownerName: 'U', name: 'Mix' }, []);
   */
  create(
    init: Pick<Playlist, 'id' | 'ownerId' | 'ownerName' | 'name'> & Partial<Playlist>,
    items: PlaylistItem[],
  ): Playlist {
    const playlist: Playlist = {
      description: null,
      public: true,
      collaborative: false,
      collaborators: new Set(),
      followers: 0,
      items: [],
      snapshotId: '',
      snapshots: new Map(),
      ...init,
    };
    commit(playlist, items);
    this.byId.set(playlist.id, playlist);
    return playlist;
  }

  /** Whether the user may see and edit the items (owner or collaborator). */
  canEdit(playlist: Playlist, userId: string): boolean {
    return (
      playlist.ownerId === userId || (playlist.collaborative && playlist.collaborators.has(userId))
    );
  }
}
