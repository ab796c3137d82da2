import { PipitError, z } from '../api/index.ts';
import type { Bridge, HueLight } from './bridge.ts';
import { api, getLights } from './bridge.ts';

/** One group as GET /groups answers it (the fields the plugin reads). */
export interface HueGroup {
  name: string;
  lights: string[];
  state?: { all_on?: boolean; any_on?: boolean };
  [key: string]: unknown;
}

/** The `lights` and `groups` parameters every control action takes (Platypush's). */
export const TARGET_PARAMS = {
  lights: z
    .array(z.union([z.string(), z.number().int()]))
    .optional()
    .describe('lights, by name or id (default: the configured lights, else all)'),
  groups: z
    .array(z.union([z.string(), z.number().int()]))
    .optional()
    .describe('groups (rooms, zones), by name or id (default: the configured groups)'),
  transitiontime: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe('fade time, in tenths of a second (the bridge default is 4)'),
};

export interface Target {
  kind: 'light' | 'group';
  id: string;
  name: string;
}

/** `light "Hue Lamp 1" (id 1)`: how messages name a target. */
export function describe(t: Target): string {
  return `${t.kind} "${t.name}" (id ${t.id})`;
}

/** GET /groups: id → group. */
export async function getGroups(
  bridge: Bridge,
  signal?: AbortSignal,
): Promise<Record<string, HueGroup>> {
  return (await api(bridge, 'GET', '/groups', undefined, 'the groups', signal)) as Record<
    string,
    HueGroup
  >;
}

function find<T extends { name: string }>(
  kind: 'light' | 'group',
  byId: Record<string, T>,
  wanted: string | number,
  host: string,
): Target {
  const key = String(wanted);
  if (byId[key]) return { kind, id: key, name: byId[key].name };
  const entry =
    Object.entries(byId).find(([, v]) => v.name === key) ??
    Object.entries(byId).find(([, v]) => v.name.toLowerCase() === key.toLowerCase());
  if (entry) return { kind, id: entry[0], name: entry[1].name };
  const known = Object.values(byId)
    .map((v) => `"${v.name}"`)
    .join(', ');
  throw new PipitError(
    'NOT_FOUND',
    `light.hue: no ${kind} "${key}" on the bridge at ${host} (${kind}s: ${known || 'none'})`,
  );
}

/**
 * The lights and groups an action works on, resolved to bridge ids: the ones asked for, else the
 * configured ones, else all lights (as Platypush). Also returns the lights read, for toggle.
 *
 * @example
 * const { targets } = await resolveTargets(bridge, { lights: ['Hue Lamp 1'] });
 */
export async function resolveTargets(
  bridge: Bridge,
  asked: { lights?: Array<string | number>; groups?: Array<string | number> },
  signal?: AbortSignal,
): Promise<{
  targets: Target[];
  lights: Record<string, HueLight>;
  groups: Record<string, HueGroup>;
}> {
  let { lights: wantLights, groups: wantGroups } = asked;
  if (!wantLights?.length && !wantGroups?.length) {
    wantLights = bridge.config.lights;
    wantGroups = bridge.config.groups;
  }
  const host = bridge.client.host;
  const lights = await getLights(bridge, signal);
  const groups = wantGroups?.length ? await getGroups(bridge, signal) : {};
  if (!wantLights?.length && !wantGroups?.length) wantLights = Object.keys(lights);
  const targets = [
    ...(wantGroups ?? []).map((g) =>
      String(g) === '0'
        ? { kind: 'group' as const, id: '0', name: 'all lights' }
        : find('group', groups, g, host),
    ),
    ...(wantLights ?? []).map((l) => find('light', lights, l, host)),
  ];
  return { targets, lights, groups };
}

/** Sends one state change to each target: PUT /lights/<id>/state or /groups/<id>/action. */
export async function sendState(
  bridge: Bridge,
  targets: Target[],
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<void> {
  for (const t of targets)
    await api(
      bridge,
      'PUT',
      t.kind === 'light' ? `/lights/${t.id}/state` : `/groups/${t.id}/action`,
      body,
      describe(t),
      signal,
    );
}
