/** One device as Zigbee2MQTT lists it on `bridge/devices` (the fields the plugin reads). */
export interface Z2mDevice {
  ieee_address: string;
  friendly_name: string;
  type?: string;
  definition?: { model?: string; vendor?: string; description?: string; exposes?: Expose[] } | null;
  [key: string]: unknown;
}

/** One of a definition's `exposes`: a property, or a group of `features`. */
export interface Expose {
  type?: string;
  property?: string;
  name?: string;
  /** Bits: 1 published in the state, 2 settable with /set, 4 readable with /get. */
  access?: number;
  features?: Expose[];
}

/** What the network cache tells the plugin when a message changes it. */
export type NetworkChange =
  | { kind: 'online' | 'offline' }
  | { kind: 'connected' | 'removed'; device: string }
  | { kind: 'properties'; device: Z2mDevice; properties: Record<string, unknown> };

/**
 * What the plugin knows of the Zigbee network, from Zigbee2MQTT's retained `bridge/*` topics and
 * the devices' state topics. Devices are keyed by IEEE address, so that a rename is not seen as a
 * device leaving and another joining.
 *
 * @example
 * const net = new Network();
 * net.onDevices([{ ieee_address: '0x1', friendly_name: 'lamp' }]); // [] (the first list is the baseline)
 */
export class Network {
  bridge: 'online' | 'offline' | 'unknown' = 'unknown';
  devices = new Map<string, Z2mDevice>();
  groups: unknown[] = [];
  readonly states = new Map<string, Record<string, unknown>>();
  private seenList = false;

  /** The device whose friendly name or IEEE address is `name`. */
  find(name: string): Z2mDevice | undefined {
    const byAddress = this.devices.get(name);
    if (byAddress) return byAddress;
    for (const d of this.devices.values()) if (d.friendly_name === name) return d;
    return undefined;
  }

  /** Friendly names, for "did you mean". */
  names(): string[] {
    return [...this.devices.values()].map((d) => d.friendly_name);
  }

  /** `bridge/state`: `{"state":"online"}` since Zigbee2MQTT 1.x; a bare `online` before. */
  onState(payload: unknown): NetworkChange[] {
    const state =
      typeof payload === 'string' ? payload : (payload as { state?: unknown } | null)?.state;
    if (state !== 'online' && state !== 'offline') return [];
    if (state === this.bridge) return [];
    this.bridge = state;
    return [{ kind: state }];
  }

  /**
   * `bridge/devices`: the whole list, republished on every join, leave and rename. Devices that
   * appear or disappear against the previous list are reported; the first list only sets the
   * baseline (a restart of Pipit does not announce every device).
   */
  onDevices(payload: unknown): NetworkChange[] {
    if (!Array.isArray(payload)) return [];
    const next = new Map<string, Z2mDevice>();
    for (const d of payload as Z2mDevice[])
      if (d && typeof d.ieee_address === 'string')
        next.set(d.ieee_address, { ...d, friendly_name: d.friendly_name ?? d.ieee_address });
    const changes: NetworkChange[] = [];
    if (this.seenList) {
      for (const [ieee, d] of next)
        if (!this.devices.has(ieee)) changes.push({ kind: 'connected', device: d.friendly_name });
      for (const [ieee, d] of this.devices)
        if (!next.has(ieee)) {
          changes.push({ kind: 'removed', device: d.friendly_name });
          this.states.delete(ieee);
        }
    }
    this.seenList = true;
    this.devices = next;
    return changes;
  }

  /**
   * `bridge/event`: `device_joined` and `device_leave` are reported at once (the devices list that
   * follows then changes nothing); `device_interview` and `device_announce` are not changes.
   */
  onEvent(payload: unknown): NetworkChange[] {
    const evt = payload as { type?: unknown; data?: Partial<Z2mDevice> } | null;
    const ieee = evt?.data?.ieee_address;
    if (typeof ieee !== 'string') return [];
    const name = evt?.data?.friendly_name ?? ieee;
    if (evt?.type === 'device_joined' && !this.devices.has(ieee)) {
      this.devices.set(ieee, { ieee_address: ieee, friendly_name: name });
      return [{ kind: 'connected', device: name }];
    }
    if (evt?.type === 'device_leave' && this.devices.has(ieee)) {
      const known = this.devices.get(ieee)!;
      this.devices.delete(ieee);
      this.states.delete(ieee);
      return [{ kind: 'removed', device: known.friendly_name }];
    }
    return [];
  }

  /**
   * A device's state message: merged into its last known state; the properties whose values
   * changed are reported (as Platypush does), none if nothing changed.
   */
  onDeviceState(device: Z2mDevice, payload: unknown): NetworkChange[] {
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return [];
    const before = this.states.get(device.ieee_address) ?? {};
    const changed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(payload))
      if (JSON.stringify(before[k]) !== JSON.stringify(v)) changed[k] = v;
    this.states.set(device.ieee_address, { ...before, ...payload });
    return Object.keys(changed).length ? [{ kind: 'properties', device, properties: changed }] : [];
  }
}

/** Every property of a definition's exposes (flattened), by name. */
export function propertiesOf(device: Z2mDevice): Map<string, Expose> {
  const out = new Map<string, Expose>();
  const walk = (list: Expose[] | undefined) => {
    for (const e of list ?? []) {
      if (e.property) out.set(e.property, e);
      walk(e.features);
    }
  };
  walk(device.definition?.exposes);
  return out;
}
