import type { App } from './accounts/store.ts';
import type { RuntimeConfig } from './config.ts';
import type { Fault, FaultEngine, FaultSpec, RateLimitSettings } from './faults.ts';
import type { LogEntry, LogFilter, RequestLog } from './request-log.ts';
import { seedState } from './state/seed.ts';
import type { SeedInfo } from './state/seed.ts';
import type { EmulatorState, SeedSettings } from './state/store.ts';
import type { Device, User } from './state/users.ts';
import { renderDevice } from './state/users.ts';

/** Options of `mintToken`. */
export interface MintOptions {
  /** Default: the default user; `null` = a client-credentials token. */
  userId?: string | null;
  scopes?: string[];
  /** Default: the default app. */
  clientId?: string;
  /** Default: the configured `tokenTtlSeconds`. */
  ttlSeconds?: number;
  /** Also issue a refresh token (as if through the code flow; `pkce` picks the flavour). */
  withRefresh?: boolean;
  pkce?: boolean;
}

/** A minted token pair. */
export interface MintedToken {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
  scopes: string[];
}

/** The test-facing control surface; the HTTP routes under `/_emulator` map onto it. */
export class EmulatorControl {
  readonly state: EmulatorState;
  readonly #faults: FaultEngine;
  readonly #log: RequestLog;
  #settings: SeedSettings;
  #info: SeedInfo;
  #defaultClientId: string;

  /**
   * @example
   * const control = new EmulatorControl(state, faults, log, settings, clientId);
   */
  constructor(
    state: EmulatorState,
    faults: FaultEngine,
    log: RequestLog,
    settings: SeedSettings,
    defaultClientId: string,
  ) {
    this.state = state;
    this.#faults = faults;
    this.#log = log;
    this.#settings = settings;
    this.#defaultClientId = defaultClientId;
    this.#info = seedState(state, settings);
  }

  /** IDs of seeded users, playlists and devices. */
  get seed(): SeedInfo {
    return this.#info;
  }

  /** Rebuild the world from the seed; faults and the request log are cleared, apps/tokens kept. */
  reset(options: { seed?: number } = {}): SeedInfo {
    if (options.seed !== undefined) this.#settings = { ...this.#settings, seed: options.seed };
    this.#faults.clear();
    this.#log.clear();
    this.#info = seedState(this.state, this.#settings);
    return this.#info;
  }

  /** Change behaviour switches at run time. */
  configure(patch: Partial<RuntimeConfig>): RuntimeConfig {
    Object.assign(this.state.config, patch);
    return { ...this.state.config };
  }

  now(): number {
    return this.state.clock.now();
  }

  /** Advance the virtual clock (players play through, tokens expire). */
  advanceClock(ms: number): number {
    return this.state.clock.advance(ms);
  }

  addUser(user: Partial<User> & { id: string }): User {
    const full: User = {
      accountId: user.id.slice(0, 10),
      displayName: user.id,
      product: 'premium',
      country: 'US',
      email: `${user.id}@example.com`,
      ...user,
    };
    this.state.addUser(full);
    return full;
  }

  /** Devices of a user (default user when omitted), as `DeviceObject`s plus `available`. */
  devices(userId = this.#info.defaultUserId) {
    const us = this.state.user(userId);
    const active = this.state.activeDevice(us)?.id ?? null;
    return [...us.devices.values()].map((d) => ({
      ...renderDevice(d, active),
      available: d.available,
    }));
  }

  addDevice(device: Partial<Device> & { name: string }, userId = this.#info.defaultUserId): Device {
    const full: Device = {
      id: this.state.rng.base62(40).toLowerCase(),
      type: 'Computer',
      volumePercent: 50,
      supportsVolume: true,
      isRestricted: false,
      isPrivateSession: false,
      available: true,
      ...device,
    };
    this.state.user(userId).devices.set(full.id, full);
    return full;
  }

  /** Patch a device; making the active one unavailable ends the session (204 from `/me/player`). */
  updateDevice(
    id: string,
    patch: Partial<Omit<Device, 'id'>>,
    userId = this.#info.defaultUserId,
  ): Device {
    const us = this.state.user(userId);
    const device = us.devices.get(id);
    if (!device) throw new Error(`Unknown device ${id}`);
    Object.assign(device, patch);
    if (!device.available && us.player.deviceId === id) us.player.stop(this.now());
    return device;
  }

  removeDevice(id: string, userId = this.#info.defaultUserId): boolean {
    const us = this.state.user(userId);
    if (us.player.deviceId === id) us.player.stop(this.now());
    return us.devices.delete(id);
  }

  /** A snapshot of a user's player for assertions. */
  player(userId = this.#info.defaultUserId) {
    const p = this.state.user(userId).player;
    const now = this.now();
    return {
      deviceId: p.deviceId,
      isPlaying: p.isPlaying,
      current: p.current,
      contextUri: p.contextUri,
      progressMs: p.progress(now),
      queue: [...p.queue],
      shuffle: p.shuffle,
      repeat: p.repeat,
      history: this.state.user(userId).history.map((h) => ({ ...h })),
    };
  }

  registerApp(app: Partial<App> & { redirectUris: string[] }): App {
    return this.state.accounts.registerApp(app);
  }

  /** Skip the browser: an access token (and optionally a refresh token) for a user. */
  mintToken(options: MintOptions = {}): MintedToken {
    const accounts = this.state.accounts;
    const clientId = options.clientId ?? this.#defaultClientId;
    const userId = options.userId === undefined ? this.#info.defaultUserId : options.userId;
    const scopes = options.scopes ?? [];
    const ttl = options.ttlSeconds ?? this.state.config.tokenTtlSeconds;
    const expiresAt = this.now() + ttl * 1000;
    const access = accounts.issueAccess(userId, clientId, scopes, expiresAt);
    const minted: MintedToken = { accessToken: access.token, expiresAt, scopes };
    if (options.withRefresh && userId !== null) {
      minted.refreshToken = accounts.issueRefresh(
        userId,
        clientId,
        scopes,
        this.now(),
        options.pkce ?? false,
      ).token;
    }
    return minted;
  }

  /** Revoke an access or refresh token (`Invalid access token` / `Refresh token revoked`). */
  revokeToken(token: string): boolean {
    const found =
      this.state.accounts.accessTokens.get(token) ?? this.state.accounts.refreshTokens.get(token);
    if (found) found.revoked = true;
    return found !== undefined;
  }

  addFault(spec: FaultSpec): Fault {
    return this.#faults.add(spec);
  }

  removeFault(id: string): boolean {
    return this.#faults.remove(id);
  }

  faults(): Fault[] {
    return this.#faults.list();
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  setRateLimit(settings: RateLimitSettings | null): void {
    this.#faults.setRateLimit(settings);
  }

  requests(filter?: LogFilter): LogEntry[] {
    return this.#log.list(filter);
  }

  clearRequests(): void {
    this.#log.clear();
  }
}
