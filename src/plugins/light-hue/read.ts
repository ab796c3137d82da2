import { defineAction, PipitError, z } from '../api/index.ts';
import type { Bridge } from './bridge.ts';
import { api, getLights, withIds } from './bridge.ts';
import { getGroups } from './targets.ts';

// get_lights, get_groups, get_scenes, scene, status.

type Ctx = { state: Bridge; signal: AbortSignal };

interface HueScene {
  name: string;
  type?: string;
  group?: string;
  lights?: string[];
  recycle?: boolean;
}

const byId = z.record(z.string(), z.unknown());

const getLightsAction = defineAction({
  name: 'get_lights',
  summary: 'The lights the bridge knows, by id, with their state.',
  params: {},
  result: byId.describe('id → {id, name, type, state: {on, bri, hue, sat, xy, ct, reachable...}}'),
  run: async (_args, { state, signal }: Ctx) => withIds(await getLights(state, signal)),
});

const getGroupsAction = defineAction({
  name: 'get_groups',
  summary: 'The groups (rooms, zones) the bridge knows, by id.',
  params: {},
  result: byId.describe('id → {id, name, lights, type, state: {all_on, any_on}, action}'),
  run: async (_args, { state, signal }: Ctx) => withIds(await getGroups(state, signal)),
});

async function scenes(bridge: Bridge, signal: AbortSignal): Promise<Record<string, HueScene>> {
  const all = (await api(bridge, 'GET', '/scenes', undefined, 'the scenes', signal)) as Record<
    string,
    HueScene
  >;
  return Object.fromEntries(Object.entries(all).filter(([, s]) => !s.recycle));
}

const getScenes = defineAction({
  name: 'get_scenes',
  summary: 'The scenes stored on the bridge, by id.',
  params: {},
  result: byId.describe('id → {id, name, type, group, lights...}'),
  run: async (_args, { state, signal }: Ctx) => withIds(await scenes(state, signal)),
});

const scene = defineAction({
  name: 'scene',
  summary: 'Recalls a scene by name, in a group.',
  description:
    "The group is `group` (or the first of `groups`, Platypush's argument), else the scene's own room, else all lights (group 0).",
  params: {
    name: z.string().min(1).describe('the scene name, as in the Hue app'),
    group: z.union([z.string(), z.number().int()]).optional().describe('group name or id'),
    groups: z
      .array(z.union([z.string(), z.number().int()]))
      .optional()
      .describe("Platypush's form: the first group is used"),
  },
  result: byId,
  run: async ({ name, group, groups }, { state, signal }: Ctx) => {
    const all = await scenes(state, signal);
    const matches = Object.entries(all).filter(([, s]) => s.name === name);
    if (!matches.length)
      throw new PipitError(
        'NOT_FOUND',
        `light.hue: no scene "${name}" on the bridge at ${state.client.host} (scenes: ${Object.values(
          all,
        )
          .map((s) => `"${s.name}"`)
          .join(', ')})`,
      );
    const wanted = group ?? groups?.[0];
    let groupId = '0';
    if (wanted !== undefined && String(wanted) !== '0') {
      const known = await getGroups(state, signal);
      const found = Object.entries(known).find(
        ([id, g]) => id === String(wanted) || g.name === String(wanted),
      );
      if (!found)
        throw new PipitError(
          'NOT_FOUND',
          `light.hue: no group "${String(wanted)}" on the bridge (groups: ${Object.values(known)
            .map((g) => `"${g.name}"`)
            .join(', ')})`,
        );
      groupId = found[0];
    }
    const [sceneId, chosen] =
      matches.find(([, s]) => s.group === groupId) ??
      matches.find(([, s]) => !s.group) ??
      matches[0]!;
    if (wanted === undefined && chosen.group) groupId = chosen.group;
    await api(
      state,
      'PUT',
      `/groups/${groupId}/action`,
      { scene: sceneId },
      `scene "${name}"`,
      signal,
    );
    return withIds(await getLights(state, signal));
  },
});

const status = defineAction({
  name: 'status',
  summary: 'Whether Pipit is paired with the bridge and reaches it, and the lights.',
  description: 'Never fails for a bridge that is down or not paired: it says so.',
  params: {},
  result: z.object({
    bridge: z.string(),
    paired: z.boolean(),
    connected: z.boolean(),
    detail: z.string(),
    lights: z.array(z.record(z.string(), z.unknown())),
  }),
  run: async (_args, { state, signal }: Ctx) => {
    const base = { bridge: state.client.host, paired: !!state.username };
    if (!state.username)
      return {
        ...base,
        connected: false,
        detail: 'not paired: press the bridge’s button, then Connect',
        lights: [],
      };
    try {
      // A live read, past the fail-fast window: status is how people check a bridge came back.
      state.link.retryAt = 0;
      const lights = await getLights(state, signal);
      state.link = { connected: true, detail: '', retryAt: 0 };
      state.kick();
      return {
        ...base,
        connected: true,
        detail: `${Object.keys(lights).length} lights`,
        lights: Object.entries(lights).map(([id, l]) => ({
          id,
          name: l.name,
          type: l.type,
          ...l.state,
        })),
      };
    } catch (err) {
      return { ...base, connected: false, detail: (err as Error).message, lights: [] };
    }
  },
});

/** The actions that read the bridge, and `scene`. */
export const readActions = [getLightsAction, getGroupsAction, getScenes, scene, status];
