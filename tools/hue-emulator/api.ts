import type { BridgeState, LightState } from './state.ts';
import { newUsername } from './state.ts';

// The v1 REST API (`/api/...`): every answer is HTTP 200 with a JSON body; failures are the
// documented list of `{"error": {type, address, description}}` (Error Messages page).

export type Answer = unknown;

/** One v1 error object; `address` is the resource or parameter it is about. */
export function hueError(type: number, address: string, description: string) {
  return { error: { type, address, description } };
}

const unauthorized = (address: string) => [hueError(1, address, 'unauthorized user')];
const notAvailable = (address: string) => [
  hueError(3, address, `resource, ${address}, not available`),
];

type Check = (value: unknown) => boolean;
const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

// The ranges of the Lights API's "Set light state" table.
const STATE_CHECKS: Record<string, Check> = {
  on: (v) => typeof v === 'boolean',
  bri: int(1, 254),
  hue: int(0, 65535),
  sat: int(0, 254),
  xy: (v) =>
    Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === 'number' && n >= 0 && n <= 1),
  ct: int(153, 500),
  alert: (v) => v === 'none' || v === 'select' || v === 'lselect',
  effect: (v) => v === 'none' || v === 'colorloop',
  transitiontime: int(0, 65535),
};

const COLORMODE: Record<string, string> = { hue: 'hs', sat: 'hs', xy: 'xy', ct: 'ct' };

/**
 * Applies a state change to lights, as PUT /lights/<id>/state and /groups/<id>/action do: one
 * success or error per parameter, in the order sent. `prefix` is `/lights/1/state` or
 * `/groups/1/action`.
 */
function applyState(
  state: BridgeState,
  lightIds: string[],
  body: Record<string, unknown>,
  prefix: string,
): Answer[] {
  const answers: Answer[] = [];
  const turningOn = body.on === true;
  for (const [key, value] of Object.entries(body)) {
    const check = STATE_CHECKS[key];
    if (!check) {
      answers.push(hueError(6, `${prefix}/${key}`, `parameter, ${key}, not available`));
      continue;
    }
    if (!check(value)) {
      answers.push(
        hueError(
          7,
          `${prefix}/${key}`,
          `invalid value, ${JSON.stringify(value)}, for parameter, ${key}`,
        ),
      );
      continue;
    }
    // A light that is off takes nothing but "on" (error 201), unless the same call turns it on.
    const off = lightIds.filter((id) => state.lights.get(id)?.state.on === false);
    if (prefix.startsWith('/lights') && key !== 'on' && off.length && !turningOn) {
      answers.push(
        hueError(
          201,
          `${prefix}/${key}`,
          `parameter, ${key}, is not modifiable. Device is set to off.`,
        ),
      );
      continue;
    }
    if (key !== 'transitiontime')
      for (const id of lightIds) {
        const light = state.lights.get(id);
        if (!light) continue;
        (light.state as unknown as Record<string, unknown>)[key] = value;
        if (COLORMODE[key]) light.state.colormode = COLORMODE[key];
      }
    answers.push({ success: { [`${prefix}/${key}`]: value } });
  }
  return answers;
}

function lightsOf(state: BridgeState, groupId: string): string[] | undefined {
  if (groupId === '0') return [...state.lights.keys()];
  return state.groups.get(groupId)?.lights.filter((id) => state.lights.has(id));
}

function groupView(state: BridgeState, id: string) {
  const group = state.groups.get(id)!;
  const members = lightsOf(state, id) ?? [];
  const on = members.map((l) => state.lights.get(l)!.state.on);
  return {
    name: group.name,
    lights: members,
    type: group.type,
    state: { all_on: on.length > 0 && on.every(Boolean), any_on: on.some(Boolean) },
    ...(group.class ? { class: group.class } : {}),
    action: {
      ...(members[0] ? pickAction(state.lights.get(members[0])!.state) : {}),
      ...group.action,
    },
  };
}

function pickAction(s: LightState): Partial<LightState> {
  const { on, bri, hue, sat, effect, xy, ct, alert, colormode } = s;
  return { on, bri, hue, sat, effect, xy, ct, alert, colormode };
}

function createUser(state: BridgeState, body: unknown, now: number): Answer {
  const devicetype = (body as { devicetype?: unknown } | null)?.devicetype;
  if (devicetype === undefined) return [hueError(5, '/', 'invalid/missing parameters in body')];
  if (typeof devicetype !== 'string' || devicetype.length < 1 || devicetype.length > 40)
    return [
      hueError(
        7,
        '/devicetype',
        `invalid value, ${JSON.stringify(devicetype)}, for parameter, devicetype`,
      ),
    ];
  if (now > state.linkButtonUntil) return [hueError(101, '', 'link button not pressed')];
  const username = newUsername();
  state.whitelist.set(username, devicetype);
  return [{ success: { username } }];
}

/**
 * Answers one v1 request: `path` is what follows `/api` (`''`, `/<user>/lights/1`...), `body` the
 * parsed JSON (or `Symbol` for a body that was not JSON).
 *
 * @example
 * handle(state, 'GET', '/nobody/lights', undefined, Date.now()); // [{error: {type: 1, ...}}]
 */
export function handle(
  state: BridgeState,
  method: string,
  path: string,
  body: unknown,
  now: number,
): Answer {
  if (body === BAD_JSON) return [hueError(2, '/', 'body contains invalid json')];
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) {
    if (method === 'POST') return createUser(state, body, now);
    return [hueError(4, '/', `method, ${method}, not available for resource, /`)];
  }
  const [user, kind, id, sub] = parts as [string, string?, string?, string?];
  const address = `/${parts.slice(1).join('/')}`;
  if (!state.whitelist.has(user)) return unauthorized(address);
  const object = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? b : null);

  if (kind === 'lights') {
    if (!id && method === 'GET') return Object.fromEntries(state.lights);
    const light = id ? state.lights.get(id) : undefined;
    if (!light) return notAvailable(`/lights/${id}`);
    if (!sub && method === 'GET') return light;
    if (sub === 'state' && method === 'PUT') {
      const b = object(body);
      if (!b) return [hueError(2, '/', 'body contains invalid json')];
      return applyState(state, [id!], b as Record<string, unknown>, `/lights/${id}/state`);
    }
  }
  if (kind === 'groups') {
    if (!id && method === 'GET')
      return Object.fromEntries([...state.groups.keys()].map((g) => [g, groupView(state, g)]));
    const members = id ? lightsOf(state, id) : undefined;
    if (!members) return notAvailable(`/groups/${id}`);
    if (!sub && method === 'GET' && id !== '0') return groupView(state, id!);
    if (sub === 'action' && method === 'PUT') {
      const b = object(body) as Record<string, unknown> | null;
      if (!b) return [hueError(2, '/', 'body contains invalid json')];
      const { scene, ...rest } = b;
      const answers: Answer[] = [];
      if (scene !== undefined) {
        const found = typeof scene === 'string' ? state.scenes.get(scene) : undefined;
        if (!found)
          answers.push(
            hueError(
              7,
              `/groups/${id}/action/scene`,
              `invalid value, ${JSON.stringify(scene)}, for parameter, scene`,
            ),
          );
        else {
          for (const [lightId, ls] of Object.entries(found.lightstates)) {
            const light = state.lights.get(lightId);
            if (light && members.includes(lightId)) Object.assign(light.state, ls);
          }
          answers.push({ success: { [`/groups/${id}/action/scene`]: scene } });
        }
      }
      answers.push(...applyState(state, members, rest, `/groups/${id}/action`));
      const group = state.groups.get(id!);
      if (group) Object.assign(group.action, rest);
      return answers;
    }
  }
  if (kind === 'scenes') {
    if (!id && method === 'GET')
      return Object.fromEntries(
        [...state.scenes].map(([sid, { lightstates: _omit, ...s }]) => [sid, s]),
      );
    const scene = id ? state.scenes.get(id) : undefined;
    if (!scene) return notAvailable(`/scenes/${id}`);
    if (!sub && method === 'GET') return scene;
  }
  if (kind === 'config' && !id && method === 'GET')
    return {
      name: 'Philips hue',
      apiversion: '1.16.0',
      swversion: '1935144040',
      bridgeid: '001788FFFE23BFC2',
      mac: '00:17:88:23:bf:c2',
      linkbutton: now <= state.linkButtonUntil,
    };
  return [hueError(4, address, `method, ${method}, not available for resource, ${address}`)];
}

/** What {@link handle} gets for a body that does not parse as JSON. */
export const BAD_JSON = Symbol('bad json');
