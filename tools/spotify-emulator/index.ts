import type { AddressInfo } from 'node:net';
import { AccountsStore } from './accounts/store.ts';
import { VirtualClock } from './clock.ts';
import { DEFAULT_REDIRECT_URI, runtimeConfig } from './config.ts';
import type { EmulatorOptions } from './config.ts';
import { EmulatorControl } from './control.ts';
import { FaultEngine } from './faults.ts';
import { RequestLog } from './request-log.ts';
import { API_ROUTES } from './routes/api.ts';
import { createEmulatorServer } from './server.ts';
import { EmulatorState } from './state/store.ts';
import type { User } from './state/users.ts';

export type { EmulatorOptions, RuntimeConfig } from './config.ts';
export type { EmulatorControl, MintOptions, MintedToken } from './control.ts';
export type { FaultResponse, FaultSpec, RateLimitSettings } from './faults.ts';
export type { LogEntry, LogFilter } from './request-log.ts';
export type { SeedInfo } from './state/seed.ts';

/** A running emulator. */
export interface SpotifyEmulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Accounts base (same origin): `/authorize`, `/api/token`. */
  accountsUrl: string;
  /** Web API base: `http://127.0.0.1:PORT/v1`. */
  apiUrl: string;
  /** The default app. `clientSecret` is null when it was registered as a public client. */
  clientId: string;
  clientSecret: string | null;
  /** Registered redirect URIs of the default app (a loopback literal accepts any port). */
  redirectUris: string[];
  control: EmulatorControl;
  close(): Promise<void>;
}

/** `METHOD /v1/...` of every implemented Web API operation (for coverage checks). */
export const SERVED_OPERATIONS: readonly string[] = API_ROUTES.map(
  (r) => `${r.method} /v1${r.path}`,
);

/**
 * Start the emulator on 127.0.0.1 (a free port by default) with a freshly seeded world.
 * @example
 * const emu = await startSpotifyEmulator({ tokenTtlSeconds: 60 });
 * const { accessToken } = emu.control.mintToken({ scopes: ['user-read-playback-state'] });
 * await fetch(`${emu.apiUrl}/me/player`, { headers: { authorization: `Bearer ${accessToken}` } });
 * await emu.close();
 */
export async function startSpotifyEmulator(
  options: EmulatorOptions = {},
): Promise<SpotifyEmulator> {
  const clock = new VirtualClock(options.clock);
  const config = runtimeConfig(options);
  const accounts = new AccountsStore();
  const redirectUris = options.app?.redirectUris ?? [DEFAULT_REDIRECT_URI];
  const app = accounts.registerApp({
    redirectUris,
    ...(options.app?.clientId === undefined ? {} : { clientId: options.app.clientId }),
    ...(options.app?.clientSecret === undefined ? {} : { clientSecret: options.app.clientSecret }),
  });
  const state = new EmulatorState(clock, config, accounts);
  const defaultUser: User = {
    id: config.authorizeUser,
    accountId: 'pipitAcct01',
    displayName: 'Pipit Tester',
    product: 'premium',
    country: 'SE',
    email: 'tester@example.com',
    ...options.user,
  };
  const faults = new FaultEngine();
  const log = new RequestLog();
  const control = new EmulatorControl(
    state,
    faults,
    log,
    {
      seed: options.seed ?? 1,
      catalogSize: { artists: 60, albums: 420, shows: 8, ...options.catalogSize },
      bigPlaylistSize: options.bigPlaylistSize ?? 5000,
      defaultUser,
    },
    app.clientId,
  );
  let origin = '';
  const server = createEmulatorServer(
    { control, faults, log, logToStdout: options.logToStdout ?? false },
    () => origin,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  state.api = `${origin}/v1`;
  return {
    url: origin,
    accountsUrl: origin,
    apiUrl: state.api,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    redirectUris,
    control,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
