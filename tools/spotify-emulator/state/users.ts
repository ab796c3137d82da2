/** A Spotify account. `product` decides whether player commands work. */
export interface User {
  id: string;
  accountId: string;
  displayName: string;
  product: 'premium' | 'free';
  country: string;
  email: string;
}

/** A Spotify Connect device. `is_active` is derived from the player, not stored. */
export interface Device {
  id: string;
  name: string;
  type: string;
  volumePercent: number | null;
  supportsVolume: boolean;
  isRestricted: boolean;
  isPrivateSession: boolean;
  /** False = offline: not listed, cannot be targeted, and an active session on it ends. */
  available: boolean;
}

/** One play in the history; only tracks are recorded. */
export interface HistoryEntry {
  uri: string;
  playedAt: number;
  contextUri: string | null;
}

/** A saved-item set keyed by ID; lists come back newest first like the real library. */
export class SavedSet {
  readonly #added = new Map<string, number>();

  /** Saving again keeps the first `added_at`. */
  add(id: string, at: number): void {
    if (!this.#added.has(id)) this.#added.set(id, at);
  }

  /** Remove; unknown IDs are ignored (the API answers 200 anyway). */
  delete(id: string): void {
    this.#added.delete(id);
  }

  has(id: string): boolean {
    return this.#added.has(id);
  }

  get size(): number {
    return this.#added.size;
  }

  /** Newest first. */
  list(): { id: string; addedAt: number }[] {
    return [...this.#added].map(([id, addedAt]) => ({ id, addedAt })).reverse();
  }
}

/** A user's library: saved items, follows and the playlists shown in `/me/playlists`. */
export class Library {
  readonly tracks = new SavedSet();
  readonly albums = new SavedSet();
  readonly episodes = new SavedSet();
  readonly shows = new SavedSet();
  readonly audiobooks = new SavedSet();
  readonly artists = new SavedSet();
  readonly users = new SavedSet();
  /** Owned and followed playlists, in `/me/playlists` order (newest first). */
  readonly playlists = new SavedSet();

  /**
   * The set a `spotify:{type}:…` URI is saved in.
   * @example
   * library.setFor('track')?.has(id);
   */
  setFor(type: string): SavedSet | undefined {
    const sets: Record<string, SavedSet> = {
      track: this.tracks,
      album: this.albums,
      episode: this.episodes,
      show: this.shows,
      audiobook: this.audiobooks,
      artist: this.artists,
      user: this.users,
      playlist: this.playlists,
    };
    return sets[type];
  }
}

/**
 * The `DeviceObject` JSON for a device.
 * @example
 * renderDevice(device, activeId);
 */
export function renderDevice(device: Device, activeId: string | null) {
  return {
    id: device.id,
    is_active: device.id === activeId,
    is_private_session: device.isPrivateSession,
    is_restricted: device.isRestricted,
    name: device.name,
    type: device.type,
    volume_percent: device.volumePercent,
    supports_volume: device.supportsVolume,
  };
}

/**
 * The `PrivateUserObject`; Development Mode drops the fields removed in Feb 2026.
 * @example
 * renderUser(user, api, 'development');
 */
export function renderUser(user: User, api: string, mode: 'development' | 'extended') {
  const base: Record<string, unknown> = {
    account_id: user.accountId,
    display_name: user.displayName,
    external_urls: { spotify: `https://open.spotify.com/user/${user.id}` },
    href: `${api}/users/${user.id}`,
    id: user.id,
    images: [],
    type: 'user',
    uri: `spotify:user:${user.id}`,
  };
  if (mode === 'extended') {
    Object.assign(base, {
      country: user.country,
      email: user.email,
      explicit_content: { filter_enabled: false, filter_locked: false },
      followers: { href: null, total: 0 },
      product: user.product,
    });
  }
  return base;
}
