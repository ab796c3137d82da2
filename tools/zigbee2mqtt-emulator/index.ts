import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { defaultDevices, defaultGroups } from './devices.ts';
import type { EmulatedDevice } from './devices.ts';

export type { EmulatedDevice } from './devices.ts';
export { defaultDevices, defaultGroups } from './devices.ts';

/** How the emulated bridge publishes bridge/state: Zigbee2MQTT 1.x+ JSON, or the older word. */
export type StateFormat = 'json' | 'plain';

export interface EmulatorOptions {
  /** mqtt://127.0.0.1:<port> of a running broker. */
  brokerUrl: string;
  /** Zigbee2MQTT's base_topic (default zigbee2mqtt). */
  prefix?: string;
  devices?: EmulatedDevice[];
  groups?: Record<string, unknown>[];
  stateFormat?: StateFormat;
  /** Broker credentials, for a broker that asks for them. */
  username?: string;
  password?: string;
}

/** A running emulated Zigbee2MQTT bridge, with the controls tests need. */
export interface Zigbee2MqttEmulator {
  readonly prefix: string;
  /** Every request received on bridge/request/<name>, in order (name and payload). */
  readonly requests: Array<{ name: string; payload: unknown }>;
  /** Every /set and /get received, in order. */
  readonly commands: Array<{ device: string; verb: 'set' | 'get'; payload: unknown }>;
  /** The device's current state. */
  stateOf(name: string): Record<string, unknown> | undefined;
  /** The bridge/devices payload as published now. */
  devicesPayload(): Record<string, unknown>[];
  /** A device reports new values (a sensor reading): merged and published on its state topic. */
  report(name: string, values: Record<string, unknown>): Promise<void>;
  /** A new device joins: bridge/event device_joined, then the new bridge/devices list. */
  join(device: EmulatedDevice): Promise<void>;
  /** A device leaves: bridge/event device_leave, then the new bridge/devices list. */
  leave(name: string, opts?: { event?: boolean }): Promise<void>;
  /** The bridge says it is offline (retained), as Zigbee2MQTT does before stopping. */
  offline(): Promise<void>;
  /** The bridge says it is online again (retained). */
  online(): Promise<void>;
  /** The next bridge/request/<name> is answered with status "error" and this error. */
  refuse(name: string, error: string): void;
  /** false: requests, /set and /get are received but never answered (a hung bridge). */
  answering: boolean;
  /** Resolves once connected to the broker (again, after a broker restart). */
  connected(): Promise<void>;
  /** Disconnects; the broker then publishes its last will (bridge/state offline). */
  close(): Promise<void>;
}

/**
 * Starts an emulated Zigbee2MQTT bridge on a real broker: it publishes the retained bridge/state,
 * bridge/devices and bridge/groups topics (again after each reconnection), answers
 * bridge/request/permit_join and bridge/request/device/rename on bridge/response/<name> with the
 * request's transaction, and handles <device>/set and <device>/get by publishing the device's state.
 *
 * @example
 * const emu = await startZigbee2MqttEmulator({ brokerUrl: broker.url });
 * await emu.report('hall_sensor', { temperature: 22 });
 * await emu.close();
 */
export async function startZigbee2MqttEmulator(
  opts: EmulatorOptions,
): Promise<Zigbee2MqttEmulator> {
  const prefix = opts.prefix ?? 'zigbee2mqtt';
  const devices = opts.devices ?? defaultDevices();
  const groups = opts.groups ?? defaultGroups();
  const stateWord = (s: 'online' | 'offline') =>
    opts.stateFormat === 'plain' ? s : JSON.stringify({ state: s });
  let bridge: 'online' | 'offline' = 'online';
  let permitJoin = false;
  const control = { answering: true };
  const requests: Zigbee2MqttEmulator['requests'] = [];
  const commands: Zigbee2MqttEmulator['commands'] = [];

  const client: MqttClient = mqtt.connect(opts.brokerUrl, {
    clientId: `z2m-emulator-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
    reconnectPeriod: 100,
    ...(opts.username ? { username: opts.username, password: opts.password ?? '' } : {}),
    will: {
      topic: `${prefix}/bridge/state`,
      payload: Buffer.from(stateWord('offline')),
      retain: true,
      qos: 1,
    },
  });
  const byName = (name: string) =>
    devices.find((d) => d.info.friendly_name === name || d.info.ieee_address === name);
  const devicesPayload = () => devices.map((d) => structuredClone(d.info));
  const pub = (sub: string, payload: unknown, retain = false) =>
    client.publishAsync(
      `${prefix}/${sub}`,
      typeof payload === 'string' ? payload : JSON.stringify(payload),
      {
        retain,
        qos: 1,
      },
    );
  const publishRetained = async () => {
    await pub('bridge/state', stateWord(bridge), true);
    await pub('bridge/devices', devicesPayload(), true);
    await pub('bridge/groups', groups, true);
  };
  const publishState = (d: EmulatedDevice) => pub(d.info.friendly_name, d.state);

  const respond = (
    name: string,
    request: Record<string, unknown>,
    body: { data: unknown; error?: string },
  ) =>
    pub(`bridge/response/${name}`, {
      data: body.data,
      status: body.error ? 'error' : 'ok',
      ...(body.error ? { error: body.error } : {}),
      ...(request.transaction === undefined ? {} : { transaction: request.transaction }),
    });

  const refusals = new Map<string, string>();
  const onRequest = async (name: string, raw: unknown) => {
    const request = (raw && typeof raw === 'object' ? raw : { value: raw }) as Record<
      string,
      unknown
    >;
    const refusal = refusals.get(name);
    refusals.delete(name);
    if (refusal) await respond(name, request, { data: {}, error: refusal });
    else if (name === 'permit_join') {
      permitJoin = request.value !== false;
      const time = typeof request.time === 'number' ? request.time : undefined;
      await respond(name, request, {
        data: { value: permitJoin, ...(time === undefined ? {} : { time }) },
      });
    } else if (name === 'device/rename') {
      const target = request.last === true ? devices.at(-1) : byName(String(request.from));
      const to = typeof request.to === 'string' ? request.to : '';
      if (!target)
        await respond(name, request, {
          data: {},
          error: `Device '${String(request.from)}' does not exist`,
        });
      else if (!to || byName(to))
        await respond(name, request, {
          data: {},
          error: `friendly_name '${to}' is already in use`,
        });
      else {
        const from = target.info.friendly_name;
        target.info.friendly_name = to;
        await pub('bridge/devices', devicesPayload(), true);
        await respond(name, request, { data: { from, to, homeassistant_rename: false } });
      }
    } else await respond(name, request, { data: {}, error: `Request '${name}' is not supported` });
  };

  const onDeviceCommand = async (device: EmulatedDevice, verb: 'set' | 'get', payload: unknown) => {
    if (!payload || typeof payload !== 'object') return;
    if (verb === 'set')
      for (const [k, v] of Object.entries(payload as Record<string, unknown>))
        device.state[k] =
          k === 'state' && v === 'TOGGLE' ? (device.state.state === 'ON' ? 'OFF' : 'ON') : v;
    await publishState(device);
  };

  client.on('message', (topic, buf) => {
    if (!topic.startsWith(`${prefix}/`)) return;
    const sub = topic.slice(prefix.length + 1);
    let payload: unknown = buf.toString();
    try {
      payload = JSON.parse(buf.toString());
    } catch {
      // permit_join accepts a bare true/false
    }
    if (sub.startsWith('bridge/request/')) {
      const name = sub.slice('bridge/request/'.length);
      requests.push({ name, payload });
      if (control.answering && bridge === 'online') void onRequest(name, payload);
      return;
    }
    const m = /^(.+)\/(set|get)$/.exec(sub);
    const device = m ? byName(m[1]!) : undefined;
    if (!m || !device) return;
    commands.push({ device: device.info.friendly_name, verb: m[2] as 'set' | 'get', payload });
    if (control.answering && bridge === 'online')
      void onDeviceCommand(device, m[2] as 'set' | 'get', payload);
  });

  const onConnect = async () => {
    // The whole base topic: device names may hold "/" (kitchen/plug/set).
    await client.subscribeAsync(`${prefix}/#`);
    await publishRetained();
  };
  // One deferred per connection: connected() waits for the current one.
  let deferred = Promise.withResolvers<void>();
  let isUp = false;
  client.on('connect', () => {
    const current = deferred;
    void onConnect().then(() => {
      isUp = true;
      current.resolve();
    }, current.reject);
  });
  client.on('close', () => {
    if (isUp) deferred = Promise.withResolvers<void>();
    isUp = false;
  });
  await deferred.promise;

  const emu: Zigbee2MqttEmulator = {
    prefix,
    requests,
    commands,
    get answering() {
      return control.answering;
    },
    set answering(on: boolean) {
      control.answering = on;
    },
    stateOf: (name) => byName(name)?.state,
    devicesPayload,
    async report(name, values) {
      const d = byName(name);
      if (!d) throw new Error(`emulator: no device ${name}`);
      Object.assign(d.state, values);
      await pub(d.info.friendly_name, values);
    },
    async join(device) {
      devices.push(device);
      const { ieee_address, friendly_name } = device.info;
      await pub('bridge/event', { type: 'device_joined', data: { friendly_name, ieee_address } });
      await pub('bridge/devices', devicesPayload(), true);
    },
    async leave(name, o = {}) {
      const i = devices.findIndex((d) => d.info.friendly_name === name);
      if (i < 0) throw new Error(`emulator: no device ${name}`);
      const [gone] = devices.splice(i, 1);
      const { ieee_address, friendly_name } = gone!.info;
      if (o.event !== false)
        await pub('bridge/event', { type: 'device_leave', data: { ieee_address, friendly_name } });
      await pub('bridge/devices', devicesPayload(), true);
    },
    async offline() {
      bridge = 'offline';
      await pub('bridge/state', stateWord('offline'), true);
    },
    async online() {
      bridge = 'online';
      await pub('bridge/state', stateWord('online'), true);
    },
    connected: () => deferred.promise,
    refuse(name, error) {
      refusals.set(name, error);
    },
    async close() {
      await client.endAsync();
    },
  };
  return emu;
}
