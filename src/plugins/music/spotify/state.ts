import type { Logger } from '../../../core/logger.ts';
import { actionsFor } from '../../../core/action.ts';
import { PipitError } from '../../../core/errors.ts';
import { grantOf } from './auth-records.ts';
import type { SpotifyProfile } from './auth-records.ts';
import type { SpotifyAuth } from './auth.ts';
import type { SpotifyClient } from './client.ts';
import type { SpotifyConfig } from './config.ts';
import type { ApiDevice } from './mappers.ts';

/** What every action of the plugin shares (built by the manifest's `init`). */
export interface SpotifyState {
  config: SpotifyConfig;
  auth: SpotifyAuth;
  client: SpotifyClient;
  log: Logger;
  /** Short-lived device list, so name lookups do not re-list devices on every call. */
  devices: { at: number; list: ApiDevice[] } | undefined;
}

/** `defineAction` bound to the plugin's state. */
export const spotifyAction = actionsFor<SpotifyState>();

/**
 * Lists the user's devices (and refreshes the name cache).
 *
 * @example
 * const devices = await listDevices(state, signal);
 */
export async function listDevices(state: SpotifyState, signal?: AbortSignal): Promise<ApiDevice[]> {
  const body = await state.client.request<{ devices?: ApiDevice[] }>({
    path: '/me/player/devices',
    signal,
  });
  const list = body?.devices ?? [];
  state.devices = { at: state.auth.timers.now(), list };
  return list;
}

/**
 * The device ID for a device given by ID or name (case-insensitive); undefined when no device is
 * given (the active one is meant). A cache miss re-lists once; an unknown device is an error that
 * lists the known names.
 *
 * @example
 * const deviceId = await resolveDevice(state, 'Kitchen speaker', signal);
 */
export async function resolveDevice(
  state: SpotifyState,
  device: string | null | undefined,
  signal?: AbortSignal,
): Promise<string | undefined> {
  if (device === undefined || device === null || device.trim() === '') return undefined;
  const wanted = device.trim().toLowerCase();
  const find = (list: ApiDevice[]) =>
    list.find((d) => d.id === device.trim()) ?? list.find((d) => d.name?.toLowerCase() === wanted);
  const cached = state.devices;
  const fresh =
    cached && state.auth.timers.now() - cached.at < state.config.device_cache_seconds * 1000;
  const hit = fresh ? find(cached.list) : undefined;
  if (hit?.id) return hit.id;
  const list = await listDevices(state, signal);
  const found = find(list);
  if (found?.id) return found.id;
  const known = list.map((d) => `"${d.name ?? d.id}"`).join(', ');
  throw new PipitError(
    'INVALID_ARGUMENTS',
    `no Spotify device named or with ID "${device}"; ${known ? `known devices: ${known}` : 'no device is online: open Spotify on one'}`,
  );
}

/**
 * The authorized account (`GET /me` once per authorization: it is stored with the tokens, so a
 * new authorization, possibly as someone else, reads it again).
 *
 * @example
 * const { id, display_name } = await currentProfile(state, signal);
 */
export async function currentProfile(
  state: SpotifyState,
  signal?: AbortSignal,
): Promise<SpotifyProfile> {
  const before = state.auth.tokens();
  if (before?.user) return before.user;
  const me = await state.client.request<{ id?: string; display_name?: string | null }>({
    path: '/me',
    signal,
  });
  if (!me?.id) throw new PipitError('UPSTREAM_ERROR', 'Spotify answered GET /me without a user ID');
  const profile = { id: me.id, display_name: me.display_name ?? null };
  // Without tokens the request has failed already; a new authorization meanwhile is not stored to.
  if (before) state.auth.rememberProfile(grantOf(before), profile);
  return profile;
}

/**
 * The authorized account's user ID.
 *
 * @example
 * const me = await currentUserId(state, signal);
 */
export async function currentUserId(state: SpotifyState, signal?: AbortSignal): Promise<string> {
  return (await currentProfile(state, signal)).id;
}
