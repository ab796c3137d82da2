import { randomBytes } from 'node:crypto';

// The bridge's resources as the v1 API shows them (Lights, Groups and Scenes API pages); see README.

export interface LightState {
  on: boolean;
  bri: number;
  hue: number;
  sat: number;
  effect: string;
  xy: [number, number];
  ct: number;
  alert: string;
  colormode: string;
  reachable: boolean;
}

export interface Light {
  state: LightState;
  type: string;
  name: string;
  modelid: string;
  manufacturername: string;
  uniqueid: string;
  swversion: string;
}

export interface Group {
  name: string;
  lights: string[];
  type: string;
  class?: string;
  action: Partial<LightState>;
}

export interface Scene {
  name: string;
  type: 'LightScene' | 'GroupScene';
  group?: string;
  lights: string[];
  owner: string;
  recycle: boolean;
  locked: boolean;
  appdata: Record<string, unknown>;
  picture: string;
  lastupdated: string;
  version: number;
  /** Not listed by GET /scenes (only by GET /scenes/<id>), as on the bridge. */
  lightstates: Record<string, Partial<LightState>>;
}

/** Everything the bridge keeps; survives a restart of the emulator's server, as a power cycle. */
export interface BridgeState {
  lights: Map<string, Light>;
  groups: Map<string, Group>;
  scenes: Map<string, Scene>;
  /** username → devicetype (the Configuration API's whitelist). */
  whitelist: Map<string, string>;
  /** Until when (ms since epoch) the link button counts as pressed. */
  linkButtonUntil: number;
}

function colorLight(id: string, name: string, state: Partial<LightState>): Light {
  return {
    state: {
      on: false,
      bri: 254,
      hue: 8418,
      sat: 140,
      effect: 'none',
      xy: [0.4573, 0.41],
      ct: 366,
      alert: 'none',
      colormode: 'ct',
      reachable: true,
      ...state,
    },
    type: 'Extended color light',
    name,
    modelid: 'LCT007',
    manufacturername: 'Philips',
    uniqueid: `00:17:88:01:00:bd:c7:b${id}-0b`,
    swversion: '5.105.0.21169',
  };
}

/**
 * A bridge with three lights, two rooms and two scenes: what the tests and the demo start from.
 *
 * @example
 * const state = seedState(); state.lights.get('1')?.name; // 'Hue Lamp 1'
 */
export function seedState(): BridgeState {
  const lights = new Map<string, Light>([
    ['1', colorLight('1', 'Hue Lamp 1', { on: true })],
    ['2', colorLight('2', 'Hue Lamp 2', {})],
    ['3', colorLight('3', 'Kitchen Ceiling', { on: true, bri: 120 })],
  ]);
  const groups = new Map<string, Group>([
    [
      '1',
      { name: 'Living Room', lights: ['1', '2'], type: 'Room', class: 'Living room', action: {} },
    ],
    ['2', { name: 'Kitchen', lights: ['3'], type: 'Room', class: 'Kitchen', action: {} }],
  ]);
  const scene = (
    name: string,
    lightIds: string[],
    lightstates: Record<string, Partial<LightState>>,
    group?: string,
  ): Scene => ({
    name,
    type: group ? 'GroupScene' : 'LightScene',
    ...(group ? { group } : {}),
    lights: lightIds,
    owner: 'ffffffffe0341b1b376a2389376a2389',
    recycle: false,
    locked: false,
    appdata: {},
    picture: '',
    lastupdated: '2026-09-01T12:00:00',
    version: 2,
    lightstates,
  });
  const scenes = new Map<string, Scene>([
    [
      'ab341ef24',
      scene(
        'Relax',
        ['1', '2'],
        { '1': { on: true, bri: 144, ct: 447 }, '2': { on: true, bri: 144, ct: 447 } },
        '1',
      ),
    ],
    [
      'cd5a1b9f3',
      scene('Bright', ['1', '2', '3'], {
        '1': { on: true, bri: 254, ct: 233 },
        '2': { on: true, bri: 254, ct: 233 },
        '3': { on: true, bri: 254 },
      }),
    ],
  ]);
  return { lights, groups, scenes, whitelist: new Map(), linkButtonUntil: 0 };
}

/** A new whitelist username, as the bridge makes them (40 characters, letters and digits). */
export function newUsername(): string {
  return randomBytes(20).toString('hex');
}
