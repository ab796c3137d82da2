import type { VirtualClock } from '../clock.ts';
import type { RuntimeConfig } from '../config.ts';
import { Prng } from '../random.ts';
import type { AccountsStore } from '../accounts/store.ts';
import { Catalog } from './catalog.ts';
import type { CatalogSize } from './catalog.ts';
import { Player } from './player.ts';
import { PlaylistStore } from './playlists.ts';
import type { RenderContext } from './render.ts';
import { Library } from './users.ts';
import type { Device, HistoryEntry, User } from './users.ts';

/** Everything that belongs to one user. */
export interface UserState {
  user: User;
  library: Library;
  devices: Map<string, Device>;
  player: Player;
  history: HistoryEntry[];
}

/** Seed-time settings. */
export interface SeedSettings {
  seed: number;
  catalogSize: CatalogSize;
  bigPlaylistSize: number;
  defaultUser: User;
}

/** The whole mutable world except apps/tokens (which survive a reset). */
export class EmulatorState {
  readonly clock: VirtualClock;
  readonly config: RuntimeConfig;
  readonly accounts: AccountsStore;
  catalog = new Catalog();
  playlists = new PlaylistStore();
  users = new Map<string, UserState>();
  rng = new Prng(1);
  /** Set by the server once it listens: `http://127.0.0.1:PORT/v1`. */
  api = '';

  /**
   * @example
   * const state = new EmulatorState(clock, config, accounts);
   */
  constructor(clock: VirtualClock, config: RuntimeConfig, accounts: AccountsStore) {
    this.clock = clock;
    this.config = config;
    this.accounts = accounts;
    clock.onAdvance((now) => this.settleAll(now));
  }

  /** Rendering context for the current origin. */
  get render(): RenderContext {
    return { catalog: this.catalog, api: this.api };
  }

  /**
   * Add a user with an empty library and no devices.
   * @example
   * state.addUser({ id: 'bob', accountId: 'x', displayName: 'Bob', product: 'free', country: 'DE', email: 'b@x' });
   */
  addUser(user: User): UserState {
    const history: HistoryEntry[] = [];
    const player = new Player({
      durationOf: (uri) => this.catalog.durationOf(uri),
      rng: this.rng,
      history,
      historyMinMs: this.config.historyMinMs,
    });
    const state: UserState = { user, library: new Library(), devices: new Map(), player, history };
    this.users.set(user.id, state);
    return state;
  }

  /** The user's state, or throws (control API misuse). */
  user(id: string): UserState {
    const state = this.users.get(id);
    if (!state) throw new Error(`Unknown emulator user ${id}`);
    return state;
  }

  /** The device the session runs on, if it is still there. */
  activeDevice(state: UserState): Device | undefined {
    const id = state.player.deviceId;
    const device = id === null ? undefined : state.devices.get(id);
    return device?.available ? device : undefined;
  }

  /** Let every player catch up with the clock. */
  settleAll(now: number): void {
    for (const state of this.users.values()) state.player.settle(now);
  }
}
