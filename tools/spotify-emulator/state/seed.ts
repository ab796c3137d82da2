import { Prng } from '../random.ts';
import { Catalog } from './catalog.ts';
import type { PlaylistItem } from './playlists.ts';
import { PlaylistStore } from './playlists.ts';
import type { EmulatorState, SeedSettings, UserState } from './store.ts';
import type { Device, User } from './users.ts';

const DAY = 86_400_000;

/** IDs of seeded objects tests want to reach directly. */
export interface SeedInfo {
  defaultUserId: string;
  freeUserId: string;
  otherUserId: string;
  bigPlaylistId: string;
  roadTripPlaylistId: string;
  privatePlaylistId: string;
  /** Owned by the other user, the default user is a collaborator. */
  collaborativePlaylistId: string;
  /** Owned by the other user, public, followed by the default user (items hidden in dev mode). */
  foreignPlaylistId: string;
  /** Spotify-owned: 404 "Resource not found". */
  spotifyOwnedPlaylistId: string;
  /** The hand-made album "Harbor Sessions" by "Miles Dover" (1955). */
  fixedAlbumId: string;
  deviceIds: { speaker: string; laptop: string; phone: string };
}

function hex(rng: Prng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[rng.int(16)];
  return out;
}

/**
 * Rebuild catalog, users, libraries, playlists, devices and history from the seed.
 * @example
 * const info = seedState(state, settings);
 */
export function seedState(state: EmulatorState, settings: SeedSettings): SeedInfo {
  const now = state.clock.now();
  const rng = new Prng(settings.seed * 7919 + 13);
  state.rng = new Prng(settings.seed + 101);
  state.catalog = Catalog.generate(settings.seed, settings.catalogSize, now);
  state.playlists = new PlaylistStore();
  state.users = new Map();
  const main = settings.defaultUser;
  const users: User[] = [
    main,
    {
      id: 'free-tester',
      accountId: rng.base62(10),
      displayName: 'Free Tester',
      product: 'free',
      country: 'DE',
      email: 'free@example.com',
    },
    {
      id: 'other-tester',
      accountId: rng.base62(10),
      displayName: 'Other Tester',
      product: 'premium',
      country: 'GB',
      email: 'other@example.com',
    },
  ];
  const trackUris = [...state.catalog.tracks.keys()].map((id) => `spotify:track:${id}`);
  const episodeUris = [...state.catalog.episodes.keys()].map((id) => `spotify:episode:${id}`);
  let deviceIds = { speaker: '', laptop: '', phone: '' };
  for (const user of users) {
    const us = state.addUser(user);
    const devices: Device[] = [
      {
        id: hex(rng, 40),
        name: 'Living Room Speaker',
        type: 'Speaker',
        volumePercent: 40,
        supportsVolume: true,
        isRestricted: false,
        isPrivateSession: false,
        available: true,
      },
      {
        id: hex(rng, 40),
        name: 'Work Laptop',
        type: 'Computer',
        volumePercent: 70,
        supportsVolume: true,
        isRestricted: false,
        isPrivateSession: false,
        available: true,
      },
      {
        id: hex(rng, 40),
        name: 'Pocket Phone',
        type: 'Smartphone',
        volumePercent: null,
        supportsVolume: false,
        isRestricted: false,
        isPrivateSession: false,
        available: true,
      },
    ];
    for (const d of devices) us.devices.set(d.id, d);
    if (user.id === main.id)
      deviceIds = { speaker: devices[0]!.id, laptop: devices[1]!.id, phone: devices[2]!.id };
  }
  const mainState = state.user(main.id);
  seedLibrary(mainState, state, rng, now);
  const item = (uri: string, at: number, by: string): PlaylistItem => ({
    uri,
    addedAt: at,
    addedBy: by,
  });
  const shuffled = rng.shuffle(trackUris);
  const make = (
    owner: UserState,
    name: string,
    uris: string[],
    extra: Record<string, unknown> = {},
  ) => {
    const base = now - 200 * DAY;
    const playlist = state.playlists.create(
      {
        id: rng.base62(),
        ownerId: owner.user.id,
        ownerName: owner.user.displayName,
        name,
        ...extra,
      },
      uris.map((uri, i) => item(uri, base + i * 60_000, owner.user.id)),
    );
    return playlist.id;
  };
  const follow = (us: UserState, id: string, at: number) => us.library.playlists.add(id, at);
  const other = state.user('other-tester');
  // Small playlists first so the big ones are at the top of /me/playlists (newest first).
  for (let i = 1; i <= 40; i++) {
    follow(
      mainState,
      make(mainState, `Mix #${i}`, shuffled.slice(i * 10, i * 10 + (i % 11))),
      now - (100 - i) * DAY,
    );
  }
  const collaborativePlaylistId = make(other, 'Shared Road Songs', shuffled.slice(500, 520), {
    public: false,
    collaborative: true,
    collaborators: new Set([main.id]),
  });
  const foreignPlaylistId = make(other, 'Other Tester Favourites', shuffled.slice(600, 640), {
    followers: 12,
  });
  follow(other, collaborativePlaylistId, now - 50 * DAY);
  follow(other, foreignPlaylistId, now - 50 * DAY);
  follow(mainState, collaborativePlaylistId, now - 40 * DAY);
  follow(mainState, foreignPlaylistId, now - 30 * DAY);
  const privatePlaylistId = make(mainState, 'Private Mix', shuffled.slice(700, 712), {
    public: false,
    description: 'Only for me',
  });
  follow(mainState, privatePlaylistId, now - 20 * DAY);
  const roadTrip = [...shuffled.slice(800, 828), episodeUris[0]!, episodeUris[1]!];
  const roadTripPlaylistId = make(mainState, 'Road Trip', roadTrip, {
    description: 'Songs for the road',
  });
  follow(mainState, roadTripPlaylistId, now - 10 * DAY);
  const big: string[] = [];
  for (let i = 0; i < settings.bigPlaylistSize; i++)
    big.push(
      i % 500 === 499 ? episodeUris[i % episodeUris.length]! : shuffled[i % shuffled.length]!,
    );
  const bigPlaylistId = make(mainState, 'Everything', big, {
    description: 'A very long playlist',
    followers: 3,
  });
  follow(mainState, bigPlaylistId, now - 5 * DAY);
  const spotifyOwnedPlaylistId = rng.base62();
  state.playlists.create(
    {
      id: spotifyOwnedPlaylistId,
      ownerId: 'spotify',
      ownerName: 'Spotify',
      name: 'Today’s Top Hits',
    },
    [],
  );
  state.playlists.spotifyOwned.add(spotifyOwnedPlaylistId);
  seedHistory(mainState, shuffled.slice(900, 930), now);
  return {
    defaultUserId: main.id,
    freeUserId: 'free-tester',
    otherUserId: 'other-tester',
    bigPlaylistId,
    roadTripPlaylistId,
    privatePlaylistId,
    collaborativePlaylistId,
    foreignPlaylistId,
    spotifyOwnedPlaylistId,
    fixedAlbumId: state.catalog.fixedAlbumId,
    deviceIds,
  };
}

function seedLibrary(us: UserState, state: EmulatorState, rng: Prng, now: number): void {
  const pickIds = (ids: string[], count: number) => rng.shuffle(ids).slice(0, count);
  const lib = us.library;
  const add = (set: { add(id: string, at: number): void }, ids: string[]) =>
    ids.forEach((id, i) => set.add(id, now - (ids.length - i) * DAY));
  add(lib.tracks, pickIds([...state.catalog.tracks.keys()], 120));
  add(lib.albums, pickIds([...state.catalog.albums.keys()], 25));
  add(lib.shows, pickIds([...state.catalog.shows.keys()], 5));
  add(lib.episodes, pickIds([...state.catalog.episodes.keys()], 12));
  add(lib.artists, pickIds([...state.catalog.artists.keys()], 3));
}

function seedHistory(us: UserState, uris: string[], now: number): void {
  // One play every 5 minutes over the last 2.5 hours, oldest first.
  uris.forEach((uri, i) => {
    us.history.push({ uri, playedAt: now - (uris.length - i) * 300_000, contextUri: null });
  });
}
