import { hostname } from 'node:os';
import type { KeyValueStore, PluginStatus } from '../api/index.ts';
import { PipitError } from '../api/index.ts';
import type { HueClient } from './client.ts';
import { errorsOf, NOT_PAIRED, raise } from './client.ts';
import type { HueConfig } from './config.ts';

/** What the plugin's kv keeps: the username the bridge gave, for that bridge only. */
export const AUTH_KEY = 'auth';
export interface StoredAuth {
  bridge: string;
  username: string;
}

/** One light as GET /lights answers it (the fields the plugin reads). */
export interface HueLight {
  name: string;
  type?: string;
  state: Record<string, unknown> & { on?: boolean; reachable?: boolean };
  [key: string]: unknown;
}

/** The plugin's state: the bridge, the username, and the link as last seen. */
export interface Bridge {
  config: HueConfig;
  client: HueClient;
  username: string | undefined;
  link: { connected: boolean; detail: string; retryAt: number };
  setStatus(status: PluginStatus): void;
  /** Wakes the poller now (after pairing, after a failure). */
  kick(): void;
}

/** `pipit#<host name>`, cut to the 40 characters the bridge accepts. */
export function deviceType(): string {
  return `pipit#${hostname()}`.slice(0, 40);
}

/** The stored username, if it was given by the configured bridge. */
export function storedUsername(kv: KeyValueStore, bridge: string): string | undefined {
  const auth = kv.get<StoredAuth>(AUTH_KEY);
  return auth && auth.bridge === bridge ? auth.username : undefined;
}

/**
 * Calls `/api/<username><path>` and returns the answer; fails fast while paired-but-unreachable,
 * with UNAVAILABLE when not paired, and with the mapped error when the bridge answers `[{error}]`.
 *
 * @example
 * const lights = await api(bridge, 'GET', '/lights', undefined, 'the lights');
 */
export async function api(
  bridge: Bridge,
  method: string,
  path: string,
  body: unknown,
  subject: string,
  signal?: AbortSignal,
): Promise<unknown> {
  if (!bridge.username) throw new PipitError('UNAVAILABLE', `light.hue: ${NOT_PAIRED}`);
  if (!bridge.link.connected && bridge.link.retryAt > Date.now())
    throw new PipitError(
      'UNAVAILABLE',
      `light.hue: the bridge at ${bridge.client.host} is not connected: ${bridge.link.detail}; retrying in ${retrySeconds(bridge)} s`,
    );
  const answer = await bridge.client.call(method, `/api/${bridge.username}${path}`, body, signal);
  const errors = errorsOf(answer);
  if (errors.length) raise(errors, subject, bridge.client.host);
  return answer;
}

/** Whole seconds until the poller tries the bridge again. */
export function retrySeconds(bridge: Bridge): number {
  return Math.max(1, Math.ceil((bridge.link.retryAt - Date.now()) / 1000));
}

/** GET /lights: id → light. */
export async function getLights(
  bridge: Bridge,
  signal?: AbortSignal,
): Promise<Record<string, HueLight>> {
  return (await api(bridge, 'GET', '/lights', undefined, 'the lights', signal)) as Record<
    string,
    HueLight
  >;
}

/** An answer keyed by id, with the id inside each entry too (Platypush's output shape). */
export function withIds<T extends object>(
  byId: Record<string, T>,
): Record<string, T & { id: string }> {
  return Object.fromEntries(Object.entries(byId).map(([id, v]) => [id, { id, ...v }]));
}
